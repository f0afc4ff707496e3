#pragma once
// Gemma 4's end of a layer, after its feed-forward: the per-layer token
// embedding's term (model/per_layer_embedding.h), then the layer's output
// scale.

#include <cstdint>
#include <span>

#include "model/forward/block.h"
#include "model/per_layer_embedding.h"

namespace ingot::model {

class LayerEndBlock final : public Block {
 public:
  LayerEndBlock(const ModelConfig& config, const ModelWeights& weights)
      : config_(config), layers_(weights.layers), per_layer_(config, weights) {}

  // Every layer's per-layer input, from the batch's embedding rows in x.
  void prepare(Step& step);
  void run(int64_t layer, Step& step) override;

 private:
  const ModelConfig& config_;
  std::span<const LayerWeights> layers_;
  PerLayerEmbedding per_layer_;
};

}  // namespace ingot::model
