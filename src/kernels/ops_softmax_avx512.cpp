// GCC 12 flags the deliberately undefined lanes inside its own AVX-512
// intrinsics (_mm512_undefined_ps, reduce_add) as maybe-uninitialized: a
// false positive.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

#include "kernels/ops_float_shape.h"
#include "kernels/ops_softmax.h"
#include "kernels/ops_vector_math_avx512.h"

namespace ingot::kernels::avx512 {

void softmax(float* x, int64_t n) {
  softmax_lanes<Floats>(x, n);
}

}  // namespace ingot::kernels::avx512
