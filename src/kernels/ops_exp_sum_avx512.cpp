// GCC 12 flags the deliberately undefined lanes inside its own AVX-512
// intrinsics (reduce_add) as uninitialized: a false positive.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"

#include <immintrin.h>

#include "kernels/ops_exp_sum.h"
#include "kernels/ops_vector_math_avx512.h"

namespace ingot::kernels::avx512 {
namespace {

// e^d in double: d = k ln2 + r with |r| <= ln2/2, e^r by its Taylor
// polynomial to r^13 (the next term is below 2^-57), 2^k applied with
// scalef, which underflows to 0 and overflows to inf. ln2 is split in two
// so that k * ln2 subtracts exactly.
inline __m512d exp_pd(__m512d d) {
  const __mmask8 nan = _mm512_cmp_pd_mask(d, d, _CMP_UNORD_Q);
  const __m512d x =
      _mm512_min_pd(_mm512_max_pd(d, _mm512_set1_pd(-1000.0)), _mm512_set1_pd(1000.0));
  const __m512d k = _mm512_roundscale_pd(_mm512_mul_pd(x, _mm512_set1_pd(1.4426950408889634)),
                                         _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  __m512d r = _mm512_fnmadd_pd(k, _mm512_set1_pd(6.93147180369123816490e-01), x);
  r = _mm512_fnmadd_pd(k, _mm512_set1_pd(1.90821492927058770002e-10), r);
  constexpr double kInverseFactorials[] = {1.0 / 6227020800.0,
                                           1.0 / 479001600.0,
                                           1.0 / 39916800.0,
                                           1.0 / 3628800.0,
                                           1.0 / 362880.0,
                                           1.0 / 40320.0,
                                           1.0 / 5040.0,
                                           1.0 / 720.0,
                                           1.0 / 120.0,
                                           1.0 / 24.0,
                                           1.0 / 6.0,
                                           0.5,
                                           1.0,
                                           1.0};
  __m512d p = _mm512_set1_pd(kInverseFactorials[0]);
  for (int i = 1; i < 14; ++i) p = _mm512_fmadd_pd(p, r, _mm512_set1_pd(kInverseFactorials[i]));
  return _mm512_mask_mov_pd(_mm512_scalef_pd(p, k), nan, d);
}

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
    const __mmask16 m = n - i >= 16 ? __mmask16(0xffff) : tail_mask(n - i);
    __m512d low, high;
    shifted(x + i, m, shift, low, high);
    sum_low = _mm512_add_pd(sum_low, _mm512_maskz_mov_pd(__mmask8(m), exp_pd(low)));
    sum_high = _mm512_add_pd(sum_high, _mm512_maskz_mov_pd(__mmask8(m >> 8), exp_pd(high)));
  }
  return _mm512_reduce_add_pd(_mm512_add_pd(sum_low, sum_high));
}

void exp_terms(const float* x, int64_t n, float shift, double* out) {
  for (int64_t i = 0; i < n; i += 16) {
    const __mmask16 m = n - i >= 16 ? __mmask16(0xffff) : tail_mask(n - i);
    __m512d low, high;
    shifted(x + i, m, shift, low, high);
    _mm512_mask_storeu_pd(out + i, __mmask8(m), exp_pd(low));
    _mm512_mask_storeu_pd(out + i + 8, __mmask8(m >> 8), exp_pd(high));
  }
}

}  // namespace ingot::kernels::avx512
