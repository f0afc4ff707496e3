// GCC 12 flags the deliberately undefined lanes inside its own AVX-512
// intrinsics (reduce_add) as uninitialized: a false positive.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"

#include <immintrin.h>

#include "kernels/ops_exp_sum.h"
#include "kernels/ops_vector_math_avx512.h"

namespace ingot::kernels::avx512 {
namespace {

// Lanes [i, i + 16) of x minus shift, in float (as the scalar path takes
// it), widened to two vectors of doubles; `m` masks a tail.
inline void shifted(const float* x, __mmask16 m, float shift, __m512d& low, __m512d& high) {
  const __m512 v = _mm512_sub_ps(_mm512_maskz_loadu_ps(m, x), _mm512_set1_ps(shift));
  low = _mm512_cvtps_pd(_mm512_castps512_ps256(v));
  high = _mm512_cvtps_pd(_mm512_extractf32x8_ps(v, 1));
}

}  // namespace

double sum_exp(const float* x, int64_t n, float shift) {
  __m512d sum_low = _mm512_setzero_pd(), sum_high = _mm512_setzero_pd();
  for (int64_t i = 0; i < n; i += 16) {
    const __mmask16 m = lanes(n - i);
    __m512d low, high;
    shifted(x + i, m, shift, low, high);
    sum_low = _mm512_add_pd(sum_low, _mm512_maskz_mov_pd(__mmask8(m), exp_pd(low)));
    sum_high = _mm512_add_pd(sum_high, _mm512_maskz_mov_pd(__mmask8(m >> 8), exp_pd(high)));
  }
  return _mm512_reduce_add_pd(_mm512_add_pd(sum_low, sum_high));
}

void exp_terms(const float* x, int64_t n, float shift, double* out) {
  for (int64_t i = 0; i < n; i += 16) {
    const __mmask16 m = lanes(n - i);
    __m512d low, high;
    shifted(x + i, m, shift, low, high);
    _mm512_mask_storeu_pd(out + i, __mmask8(m), exp_pd(low));
    _mm512_mask_storeu_pd(out + i + 8, __mmask8(m >> 8), exp_pd(high));
  }
}

}  // namespace ingot::kernels::avx512
