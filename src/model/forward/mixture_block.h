#pragma once
// A mixture of experts as a pre-norm block (qwen3moe, qwen35moe, gpt-oss):
//   x += Experts(n(x))                                  (model/expert_feed_forward.h)
//   x += Experts(n(x)) + sigmoid(g . n(x)) Shared(n(x))  with a shared expert
// the shared expert a dense unit n_ff wide (qwen35moe).

#include <cstdint>
#include <span>
#include <vector>

#include "model/expert_feed_forward.h"
#include "model/forward/block.h"
#include "model/forward/dense_feed_forward.h"

namespace ingot::model {

class MixtureBlock final : public Block {
 public:
  MixtureBlock(const ModelConfig& config, std::span<const LayerWeights> layers)
      : config_(config), layers_(layers), experts_(config), shared_(config, nullptr) {}

  void run(int64_t layer, Step& step) override;

 private:
  void gate_shared_expert(const LayerWeights& w, const float* normed, int64_t n_rows);
  void add_shared(const LayerWeights& w, Step& step);

  const ModelConfig& config_;
  std::span<const LayerWeights> layers_;
  ExpertFeedForward experts_;
  DenseFeedForward shared_;
  std::vector<float> routed_;        // [T][n_embd] the routed experts' sum
  std::vector<float> shared_scale_;  // [T] the shared expert's gate
};

}  // namespace ingot::model
