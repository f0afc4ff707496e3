#pragma once
// The dense feed-forward as a pre-norm block,
//   x += post_norm(DenseFeedForward(n(x)))
// with post_norm only where the file has it (Gemma).

#include <cstdint>
#include <span>

#include "model/forward/block.h"
#include "model/forward/dense_feed_forward.h"

namespace ingot::model {

class FeedForwardBlock final : public Block {
 public:
  FeedForwardBlock(const ModelConfig& config, std::span<const LayerWeights> layers,
                   AdaptedMatmul* adapted)
      : config_(config), layers_(layers), unit_(config, adapted) {}

  void run(int64_t layer, Step& step) override;

 private:
  const ModelConfig& config_;
  std::span<const LayerWeights> layers_;
  DenseFeedForward unit_;
};

}  // namespace ingot::model
