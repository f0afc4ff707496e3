#pragma once
// The second half of a low-rank product, as a LoRA adapter's B (A x) needs
// it: a row's rank-long middle m expands into its outputs,
//   y[o] += sum_k m[k] b[k][o].
// b is held in blocks of kLowRankBlock outputs, each block holding its
// outputs' values for k = 0, 1, ... one after another (F16), so that the
// sum runs down whole vectors of outputs and reads b front to back. Held
// as adapter files store it, one rank-long row per output, each output
// would be a short dot product ending in a horizontal sum, which costs more
// than its arithmetic.

#include <cstdint>

namespace ingot::kernels {

inline constexpr int64_t kLowRankBlock = 16;

// Where b[k][o] sits in the blocked layout, and the layout's size (the last
// block padded).
inline int64_t low_rank_offset(int64_t o, int64_t k, int64_t rank) {
  return (o / kLowRankBlock) * rank * kLowRankBlock + k * kLowRankBlock + o % kLowRankBlock;
}
inline int64_t low_rank_size(int64_t out, int64_t rank) {
  return (out + kLowRankBlock - 1) / kLowRankBlock * kLowRankBlock * rank;
}

// Outputs [begin, end) of one row; begin is a multiple of kLowRankBlock.
void add_low_rank(const float* m, int64_t rank, const uint16_t* b, int64_t begin, int64_t end,
                  float* y);

namespace scalar {
void add_low_rank(const float* m, int64_t rank, const uint16_t* b, int64_t begin, int64_t end,
                  float* y);
}  // namespace scalar

}  // namespace ingot::kernels
