// GCC 12 flags the deliberately undefined lanes inside its own AVX-512
// intrinsics (_mm512_undefined_ps) as maybe-uninitialized: a false positive.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

#include <immintrin.h>

#include "kernels/ops_activation.h"
#include "kernels/ops_vector_math_avx512.h"

namespace ingot::kernels::avx512 {

namespace {

// y = f(x) sixteen lanes at a time, the tail under a mask.
template <class F>
void map_lanes(const float* x, float* y, int64_t n, F f) {
  int64_t i = 0;
  for (; i + 16 <= n; i += 16) _mm512_storeu_ps(y + i, f(_mm512_loadu_ps(x + i)));
  if (i < n) {
    const __mmask16 m = tail_mask(n - i);
    _mm512_mask_storeu_ps(y + i, m, f(_mm512_maskz_loadu_ps(m, x + i)));
  }
}

}  // namespace

void silu(const float* x, float* y, int64_t n) {
  map_lanes(x, y, n, [](__m512 v) { return silu_ps(v); });
}

void gelu(const float* x, float* y, int64_t n) {
  map_lanes(x, y, n, [](__m512 v) { return gelu_ps(v); });
}

void swiglu(const float* gate, const float* up, float* out, int64_t n) {
  int64_t i = 0;
  for (; i + 16 <= n; i += 16) {
    const __m512 g = silu_ps(_mm512_loadu_ps(gate + i));
    _mm512_storeu_ps(out + i, _mm512_mul_ps(g, _mm512_loadu_ps(up + i)));
  }
  if (i < n) {
    const __mmask16 m = tail_mask(n - i);
    const __m512 g = silu_ps(_mm512_maskz_loadu_ps(m, gate + i));
    _mm512_mask_storeu_ps(out + i, m, _mm512_mul_ps(g, _mm512_maskz_loadu_ps(m, up + i)));
  }
}

}  // namespace ingot::kernels::avx512
