#pragma once
// DiffusionGemma's input to a canvas step: each position's scaled token
// embedding e plus, from its second step on, the self-conditioning of the
// previous step's token probabilities, RMS-normed without a weight:
//   x = rms_norm(e + sc),   sc = Wdown (gelu(Wgate n) * Wup n),
//   n = rms_norm(sqrt(n_embd) s) * pre_norm,  s = sum_v p_v E_v
// (model/forward/soft_embedding.h). On a first step sc is zero, as the
// reference's gate of zero makes it.

#include <cstdint>
#include <span>
#include <vector>

#include "model/forward/block.h"
#include "model/forward/dense_feed_forward.h"
#include "model/forward/soft_embedding.h"
#include "model/model_config.h"
#include "model/packed_input.h"
#include "model/weights.h"

namespace ingot::model {

class CanvasInput {
 public:
  CanvasInput(const ModelConfig& config, const ModelWeights& weights);

  // step.residual.x holds the batch's scaled embedding rows; previous[t]
  // is entry t's token probabilities at the step before (n_vocab values),
  // or null on its first step.
  void run(std::span<const float* const> previous, Step& step);

 private:
  void add_self_conditioning(std::span<const float* const> previous, Step& step);

  const ModelConfig& config_;
  const ModelWeights& weights_;
  LayerWeights block_;  // the self-conditioning block's gate, up and down
  SoftEmbedding soft_embedding_;
  DenseFeedForward feed_forward_;
  std::vector<float> ones_;    // n_embd: the final norm has no weight
  std::vector<float> soft_;    // [T][n_embd]
  std::vector<float> signal_;  // [T][n_embd]
  PackedInput packed_soft_;
};

}  // namespace ingot::model
