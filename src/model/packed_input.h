#pragma once
// A matmul input packed once for each operand type the weights reading it
// need (Q8_0, Q8_K, F16, ...): q/k/v share one packing unless a mixed-type
// file gives them different operand types.

#include <array>
#include <cstdint>

#include "kernels/matmul.h"
#include "kernels/packed_activations.h"
#include "util/thread_pool.h"

namespace ingot::model {

class PackedInput {
 public:
  void reset(const float* x, int64_t n_tokens, int64_t cols);
  const kernels::PackedActivations& for_weight(const kernels::WeightMatrix& w, ThreadPool& pool);
  // y = this input times w, as one product of a kernels::matmul_all call.
  // The packing it points to stays valid until reset or a fourth
  // operand type.
  kernels::MatmulProduct product(const kernels::WeightMatrix& w, float* y, int64_t y_stride,
                                 ThreadPool& pool) {
    return {&w, &for_weight(w, pool), y, y_stride};
  }

 private:
  // q/k/v read one input with at most three operand types; linear
  // attention reads one with four matrices.
  static constexpr int kSlots = 4;
  const float* x_ = nullptr;
  int64_t n_tokens_ = 0;
  int64_t cols_ = 0;
  int used_ = 0;
  std::array<kernels::PackedActivations, kSlots> packs_;
  std::array<kernels::ElementType, kSlots> operand_types_{};
};

}  // namespace ingot::model
