#include "kernels/ops_low_rank.h"

#include "kernels/half.h"
#include "kernels/kernel_table.h"

namespace ingot::kernels {

namespace scalar {

void add_low_rank(const float* m, int64_t rank, const uint16_t* b, int64_t begin, int64_t end,
                  float* y) {
  for (int64_t o = begin; o < end; ++o) {
    float sum = y[o];
    for (int64_t k = 0; k < rank; ++k) sum += m[k] * f16_to_f32(b[low_rank_offset(o, k, rank)]);
    y[o] = sum;
  }
}

}  // namespace scalar

void add_low_rank(const float* m, int64_t rank, const uint16_t* b, int64_t begin, int64_t end,
                  float* y) {
  active_kernels().add_low_rank(m, rank, b, begin, end, y);
}

}  // namespace ingot::kernels
