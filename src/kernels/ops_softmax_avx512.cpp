// GCC 12 flags the deliberately undefined lanes inside its own AVX-512
// intrinsics (_mm512_undefined_ps) as maybe-uninitialized: a false positive.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

#include <immintrin.h>

#include <cmath>

#include "kernels/ops_softmax.h"
#include "kernels/ops_vector_math_avx512.h"

namespace ingot::kernels::avx512 {
namespace {

float max_of(const float* x, int64_t n) {
  __m512 max = _mm512_set1_ps(-INFINITY);
  int64_t i = 0;
  for (; i + 16 <= n; i += 16) max = _mm512_max_ps(max, _mm512_loadu_ps(x + i));
  if (i < n) {
    const __mmask16 m = tail_mask(n - i);
    max = _mm512_mask_max_ps(max, m, max, _mm512_maskz_loadu_ps(m, x + i));
  }
  return _mm512_reduce_max_ps(max);
}

}  // namespace

void softmax(float* x, int64_t n) {
  if (n <= 0) return;
  const __m512 max = _mm512_set1_ps(max_of(x, n));
  __m512 sum = _mm512_setzero_ps();
  int64_t i = 0;
  for (; i + 16 <= n; i += 16) {
    const __m512 e = exp_ps(_mm512_sub_ps(_mm512_loadu_ps(x + i), max));
    _mm512_storeu_ps(x + i, e);
    sum = _mm512_add_ps(sum, e);
  }
  if (i < n) {
    const __mmask16 m = tail_mask(n - i);
    const __m512 e = exp_ps(_mm512_sub_ps(_mm512_maskz_loadu_ps(m, x + i), max));
    _mm512_mask_storeu_ps(x + i, m, e);
    sum = _mm512_mask_add_ps(sum, m, sum, e);
  }
  const __m512 inverse_sum = _mm512_set1_ps(1.0f / _mm512_reduce_add_ps(sum));
  for (i = 0; i + 16 <= n; i += 16) {
    _mm512_storeu_ps(x + i, _mm512_mul_ps(_mm512_loadu_ps(x + i), inverse_sum));
  }
  if (i < n) {
    const __mmask16 m = tail_mask(n - i);
    _mm512_mask_storeu_ps(x + i, m, _mm512_mul_ps(_mm512_maskz_loadu_ps(m, x + i), inverse_sum));
  }
}

}  // namespace ingot::kernels::avx512
