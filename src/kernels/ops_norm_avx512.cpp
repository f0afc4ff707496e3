// GCC 12 flags the deliberately undefined lanes inside its own AVX-512
// intrinsics (_mm512_undefined_ps, reduce_add) as maybe-uninitialized: a
// false positive.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

#include "kernels/ops_float_shape.h"
#include "kernels/ops_norm.h"
#include "kernels/ops_vector_math_avx512.h"

namespace ingot::kernels::avx512 {

void rms_norm(const float* x, const float* weight, float* y, int64_t n_rows, int64_t n, float eps) {
  rms_norm_rows<Floats>(x, weight, y, n_rows, n, eps);
}

}  // namespace ingot::kernels::avx512
