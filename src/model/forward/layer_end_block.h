#pragma once
// Gemma 4's end of a layer, after its feed-forward: the per-layer token
// embedding's term (model/per_layer_embedding.h), then the layer's output
// scale (in DiffusionGemma's canvas pass, its decoder scale).

#include <cstdint>
#include <span>

#include "model/forward/block.h"
#include "model/per_layer_embedding.h"

namespace ingot::model {

class LayerEndBlock final : public Block {
 public:
  LayerEndBlock(const ModelConfig& config, const ModelWeights& weights, bool canvas = false)
      : config_(config), layers_(weights.layers), per_layer_(config, weights), canvas_(canvas) {}

  // Every layer's per-layer input, from the batch's embedding rows in x.
  void prepare(Step& step);
  void run(int64_t layer, Step& step) override;

 private:
  const ModelConfig& config_;
  std::span<const LayerWeights> layers_;
  PerLayerEmbedding per_layer_;
  bool canvas_;
};

}  // namespace ingot::model
