#include "kernels/ops_exp_sum.h"
#include "kernels/ops_exp_sum_shape.h"
#include "kernels/ops_vector_math_neon.h"

namespace ingot::kernels::neon {

double sum_exp(const float* x, int64_t n, float shift) {
  return sum_exp_lanes<Floats>(x, n, shift);
}

void exp_terms(const float* x, int64_t n, float shift, double* out) {
  exp_terms_lanes<Floats>(x, n, shift, out);
}

}  // namespace ingot::kernels::neon
