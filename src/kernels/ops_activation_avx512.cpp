// GCC 12 flags the deliberately undefined lanes inside its own AVX-512
// intrinsics (_mm512_undefined_ps, reduce_add) as maybe-uninitialized: a
// false positive.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

#include "kernels/ops_activation.h"
#include "kernels/ops_float_shape.h"
#include "kernels/ops_vector_math_avx512.h"

namespace ingot::kernels::avx512 {

void silu(const float* x, float* y, int64_t n) {
  silu_lanes<Floats>(x, y, n);
}

void gelu(const float* x, float* y, int64_t n) {
  gelu_lanes<Floats>(x, y, n);
}

void swiglu(const float* gate, const float* up, float* out, int64_t n) {
  swiglu_lanes<Floats>(gate, up, out, n);
}

}  // namespace ingot::kernels::avx512
