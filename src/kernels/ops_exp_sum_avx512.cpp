// GCC 12 flags the deliberately undefined lanes inside its own AVX-512
// intrinsics (reduce_add) as uninitialized: a false positive.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"

#include "kernels/ops_exp_sum.h"
#include "kernels/ops_exp_sum_shape.h"
#include "kernels/ops_vector_math_avx512.h"

namespace ingot::kernels::avx512 {

double sum_exp(const float* x, int64_t n, float shift) {
  return sum_exp_lanes<Floats>(x, n, shift);
}

void exp_terms(const float* x, int64_t n, float shift, double* out) {
  exp_terms_lanes<Floats>(x, n, shift, out);
}

}  // namespace ingot::kernels::avx512
