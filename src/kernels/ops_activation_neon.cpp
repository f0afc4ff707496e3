#include "kernels/ops_activation.h"
#include "kernels/ops_float_shape.h"
#include "kernels/ops_vector_math_neon.h"

namespace ingot::kernels::neon {

void silu(const float* x, float* y, int64_t n) {
  silu_lanes<Floats>(x, y, n);
}

void gelu(const float* x, float* y, int64_t n) {
  gelu_lanes<Floats>(x, y, n);
}

void swiglu(const float* gate, const float* up, float* out, int64_t n) {
  swiglu_lanes<Floats>(gate, up, out, n);
}

}  // namespace ingot::kernels::neon
