#pragma once
// A dense feed-forward unit (and a mixture's shared expert):
//   out = Wdown (act(Wgate x) * Wup x)          with a gate
//   out = Wdown act(Wup x + bup) + bdown        without one (BERT)
// with act the architecture's activation (SiLU, or GELU for Gemma and BERT).

#include <cstdint>
#include <vector>

#include "kernels/packed_activations.h"
#include "model/forward/adapted_matmul.h"
#include "model/forward/block.h"
#include "model/model_config.h"
#include "model/packed_input.h"
#include "model/weights.h"

namespace ingot::model {

class DenseFeedForward {
 public:
  // `adapted` null: no LoRA adapters.
  DenseFeedForward(const ModelConfig& config, AdaptedMatmul* adapted)
      : config_(config), adapted_(adapted) {}

  // out <- the unit over the step's rows, packed in `input`; `layer`
  // names the adapters' layer.
  void run(const LayerWeights& w, int64_t layer, PackedInput& input, float* out, Step& step);

 private:
  void project_hidden(const LayerWeights& w, int64_t layer, PackedInput& input, Step& step);
  void activate_and_pack(const LayerWeights& w, int64_t n_rows, ThreadPool& pool);
  void activate(const LayerWeights& w, float* hidden, const float* up, int64_t first,
                int64_t n) const;

  const ModelConfig& config_;
  AdaptedMatmul* adapted_;
  std::vector<float> gate_;  // [T][n_ff]: the gate's rows, then the activated hidden rows
  std::vector<float> up_;    // [T][n_ff]
  kernels::PackedActivations packed_hidden_;  // read by the down projection
  PackedInput lora_hidden_;                   // and by its adapters' A
};

}  // namespace ingot::model
