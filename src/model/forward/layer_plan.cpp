#include "model/forward/layer_plan.h"

#include <algorithm>

#include "model/forward/feed_forward_block.h"
#include "model/forward/mixture_block.h"
#include "model/forward/parallel_mixture_block.h"

namespace ingot::model {
namespace {

std::vector<AttentionLayer> attention_layers(const ModelConfig& config) {
  std::vector<AttentionLayer> shapes;
  for (int64_t layer = 0; layer < config.n_layers; ++layer) {
    shapes.push_back(config.is_recurrent(layer) ? AttentionLayer{}
                                                : attention_layer(config, layer));
  }
  return shapes;
}

bool has_layer_end(const ModelConfig& config, const ModelWeights& weights, bool canvas) {
  return config.gemma.per_layer_embedding > 0 ||
         std::any_of(weights.layers.begin(), weights.layers.end(), [canvas](const LayerWeights& w) {
           return (canvas ? w.canvas_output_scale : w.output_scale) != 1.0f;
         });
}

}  // namespace

std::unique_ptr<Block> make_feed_forward(const ModelConfig& config,
                                         std::span<const LayerWeights> layers, bool mixture,
                                         AdaptedMatmul* adapted) {
  if (!mixture) return std::make_unique<FeedForwardBlock>(config, layers, adapted);
  if (config.traits.experts_beside_dense) {
    return std::make_unique<ParallelMixtureBlock>(config, layers);
  }
  return std::make_unique<MixtureBlock>(config, layers);
}

LayerPlan::LayerPlan(const ModelConfig& config, const ModelWeights& weights, AdaptedMatmul* adapted,
                     bool canvas)
    : config_(config), weights_(weights.layers), adapted_(adapted) {
  if (config.n_layers > config.n_recurrent_layers) {
    attention_ =
        std::make_unique<AttentionBlock>(config, weights_, attention_layers(config), adapted);
    if (canvas) attention_->see_canvas_of(config.diffusion.canvas_length);
  }
  if (config.n_recurrent_layers > 0) {
    linear_attention_ = std::make_unique<LinearAttentionBlock>(config, weights_);
  }
  if (has_layer_end(config, weights, canvas)) {
    layer_end_ = std::make_unique<LayerEndBlock>(config, weights, canvas);
  }
  for (int64_t layer = 0; layer < config.n_layers; ++layer) {
    const LayerWeights& w = weights_[size_t(layer)];
    Block* mixer = config.is_recurrent(layer) ? static_cast<Block*>(linear_attention_.get())
                                              : attention_.get();
    layers_.push_back({mixer, feed_forward_for(w), layer_end_.get()});
  }
}

Block* LayerPlan::feed_forward_for(const LayerWeights& w) {
  const bool mixture = !w.expert_gate.empty();
  std::unique_ptr<Block>& block = mixture ? mixture_ : dense_;
  if (!block) block = make_feed_forward(config_, weights_, mixture, adapted_);
  return block.get();
}

}  // namespace ingot::model
