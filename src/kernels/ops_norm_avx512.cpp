// GCC 12 flags the deliberately undefined lanes inside its own AVX-512
// intrinsics (reduce_add) as maybe-uninitialized: a false positive.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

#include <immintrin.h>

#include <cmath>

#include "kernels/ops_norm.h"
#include "kernels/ops_vector_math_avx512.h"

namespace ingot::kernels::avx512 {
namespace {

// The squares of 16 floats, widened to double and added into two
// accumulators of 8 (the sum runs in double, as in the scalar path).
inline void add_squares(__m512 v, __m512d& low, __m512d& high) {
  const __m512d lo = _mm512_cvtps_pd(_mm512_castps512_ps256(v));
  const __m512d hi = _mm512_cvtps_pd(_mm512_extractf32x8_ps(v, 1));
  low = _mm512_fmadd_pd(lo, lo, low);
  high = _mm512_fmadd_pd(hi, hi, high);
}

double sum_of_squares(const float* x, int64_t n) {
  __m512d acc[4] = {_mm512_setzero_pd(), _mm512_setzero_pd(), _mm512_setzero_pd(),
                    _mm512_setzero_pd()};
  int64_t i = 0;
  for (; i + 32 <= n; i += 32) {
    add_squares(_mm512_loadu_ps(x + i), acc[0], acc[1]);
    add_squares(_mm512_loadu_ps(x + i + 16), acc[2], acc[3]);
  }
  for (; i < n; i += 16) {
    const __mmask16 m = tail_mask(n - i);
    add_squares(_mm512_maskz_loadu_ps(m, x + i), acc[0], acc[1]);
  }
  return _mm512_reduce_add_pd(
      _mm512_add_pd(_mm512_add_pd(acc[0], acc[1]), _mm512_add_pd(acc[2], acc[3])));
}

}  // namespace

void rms_norm(const float* x, const float* weight, float* y, int64_t n_rows, int64_t n, float eps) {
  for (int64_t r = 0; r < n_rows; ++r, x += n, y += n) {
    const float mean = float(sum_of_squares(x, n) / double(n));
    const __m512 inverse_rms = _mm512_set1_ps(1.0f / std::sqrt(mean + eps));
    int64_t i = 0;
    for (; i + 16 <= n; i += 16) {
      const __m512 v = _mm512_mul_ps(_mm512_loadu_ps(x + i), inverse_rms);
      _mm512_storeu_ps(y + i, _mm512_mul_ps(v, _mm512_loadu_ps(weight + i)));
    }
    if (i < n) {
      const __mmask16 m = tail_mask(n - i);
      const __m512 v = _mm512_mul_ps(_mm512_maskz_loadu_ps(m, x + i), inverse_rms);
      _mm512_mask_storeu_ps(y + i, m, _mm512_mul_ps(v, _mm512_maskz_loadu_ps(m, weight + i)));
    }
  }
}

}  // namespace ingot::kernels::avx512
