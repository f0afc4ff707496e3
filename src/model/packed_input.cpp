#include "model/packed_input.h"

#include "kernels/activation_pack.h"

namespace ingot::model {

void PackedInput::reset(const float* x, int64_t n_tokens, int64_t cols) {
  x_ = x;
  n_tokens_ = n_tokens;
  cols_ = cols;
  used_ = 0;
}

const kernels::PackedActivations& PackedInput::for_weight(const kernels::WeightMatrix& w,
                                                          ThreadPool& pool) {
  const kernels::ElementType operand = kernels::dot_operand_type(w.type);
  for (int i = 0; i < used_; ++i) {
    if (operand_types_[i] == operand) return packs_[i];
  }
  const int slot = used_ < kSlots ? used_++ : 0;
  operand_types_[slot] = operand;
  packs_[slot].pack(x_, n_tokens_, cols_, w.type, pool);
  return packs_[slot];
}

}  // namespace ingot::model
