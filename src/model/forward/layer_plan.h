#pragma once
// Which blocks each layer of a decoder's trunk runs, chosen from the config
// and the weights: its token mixer (attention, or linear attention where
// the config says the layer is recurrent), its feed-forward (dense, a
// mixture of experts where the layer has a router, beside a dense unit
// where the architecture says so), and an end where the file gives one
// (per-layer embeddings, output scales). Each block is made once and
// shared by the layers that use it: its scratch serves them all.

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "model/forward/adapted_matmul.h"
#include "model/forward/attention_block.h"
#include "model/forward/block.h"
#include "model/forward/layer_end_block.h"
#include "model/forward/linear_attention_block.h"
#include "model/model_config.h"
#include "model/weights.h"

namespace ingot::model {

struct LayerBlocks {
  Block* mixer;
  Block* feed_forward;
  Block* end = nullptr;
};

// The feed-forward block for `layers`: a mixture when `mixture`, else dense.
std::unique_ptr<Block> make_feed_forward(const ModelConfig& config,
                                         std::span<const LayerWeights> layers, bool mixture,
                                         AdaptedMatmul* adapted);

class LayerPlan {
 public:
  // `adapted` null: the trunk serves no LoRA adapters. `canvas`: the plan
  // of DiffusionGemma's canvas pass (its attention sees the canvas both
  // ways, its layers end with their decoder scales).
  LayerPlan(const ModelConfig& config, const ModelWeights& weights, AdaptedMatmul* adapted,
            bool canvas = false);

  const LayerBlocks& layer(int64_t index) const { return layers_[size_t(index)]; }

  // The blocks that prepare before a batch's layers and finish after
  // them, or null where the trunk has none.
  AttentionBlock* attention() const { return attention_.get(); }
  LinearAttentionBlock* linear_attention() const { return linear_attention_.get(); }
  LayerEndBlock* layer_end() const { return layer_end_.get(); }

 private:
  Block* feed_forward_for(const LayerWeights& w);

  const ModelConfig& config_;
  std::span<const LayerWeights> weights_;
  AdaptedMatmul* adapted_;
  std::unique_ptr<AttentionBlock> attention_;
  std::unique_ptr<LinearAttentionBlock> linear_attention_;
  std::unique_ptr<Block> dense_;
  std::unique_ptr<Block> mixture_;
  std::unique_ptr<LayerEndBlock> layer_end_;
  std::vector<LayerBlocks> layers_;
};

}  // namespace ingot::model
