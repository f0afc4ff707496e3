#include "kernels/ops_float_shape.h"
#include "kernels/ops_norm.h"
#include "kernels/ops_vector_math_neon.h"

namespace ingot::kernels::neon {

void rms_norm(const float* x, const float* weight, float* y, int64_t n_rows, int64_t n, float eps) {
  rms_norm_rows<Floats>(x, weight, y, n_rows, n, eps);
}

}  // namespace ingot::kernels::neon
