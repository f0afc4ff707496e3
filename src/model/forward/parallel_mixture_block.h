#pragma once
// Gemma 4's mixture layer: the routed experts beside a dense unit on the
// same residual, each side normed before and after, their sum normed again:
//   e = post_e(Experts(n_e(x)))  with the router reading
//       rms_norm(x) / sqrt(n_embd) * router_input_scale
//   d = post_d(Dense(n(x)))
//   x += post(e + d)

#include <cstdint>
#include <span>
#include <vector>

#include "model/expert_feed_forward.h"
#include "model/forward/block.h"
#include "model/forward/dense_feed_forward.h"

namespace ingot::model {

class ParallelMixtureBlock final : public Block {
 public:
  ParallelMixtureBlock(const ModelConfig& config, std::span<const LayerWeights> layers)
      : config_(config),
        layers_(layers),
        experts_(config),
        dense_(config, nullptr),
        ones_(size_t(config.n_embd), 1.0f) {}

  void run(int64_t layer, Step& step) override;

 private:
  void run_experts(const LayerWeights& w, Step& step);
  void scale_router_input(const LayerWeights& w, int64_t n_rows);

  const ModelConfig& config_;
  std::span<const LayerWeights> layers_;
  ExpertFeedForward experts_;
  DenseFeedForward dense_;
  std::vector<float> ones_;        // the router input's norm has no weight
  std::vector<float> experts_in_;  // [T][n_embd]
  std::vector<float> router_in_;   // [T][n_embd]
  PackedInput packed_router_;
  std::vector<float> routed_;  // [T][n_embd] the routed experts' sum
};

}  // namespace ingot::model
