#include <immintrin.h>

#include <cmath>

#include "kernels/ops_delta_rule.h"
#include "kernels/ops_vector_math_avx512.h"

namespace ingot::kernels::avx512 {

// The scalar path's two passes, 16 value lanes at a time: for each block
// of lanes, the recall over every row, then the rows' update and the
// output's sum. A block's rows are 64 bytes each: both passes over them
// stay in L1.
void delta_rule_step(float* state, const float* q, const float* k, const float* v, float log_decay,
                     float beta, int64_t n, float* out) {
  const float decay = std::exp(log_decay);
  const __m512 decay_v = _mm512_set1_ps(decay);
  const __m512 beta_v = _mm512_set1_ps(beta);
  const __m512 scale_v = _mm512_set1_ps(1.0f / std::sqrt(float(n)));
  for (int64_t j = 0; j < n; j += 16) {
    const __mmask16 m = lanes(n - j);
    __m512 recall = _mm512_setzero_ps();
    for (int64_t i = 0; i < n; ++i) {
      recall = _mm512_fmadd_ps(_mm512_maskz_loadu_ps(m, state + i * n + j), _mm512_set1_ps(k[i]),
                               recall);
    }
    const __m512 values = _mm512_maskz_loadu_ps(m, v + j);
    const __m512 delta = _mm512_mul_ps(_mm512_fnmadd_ps(decay_v, recall, values), beta_v);
    __m512 read = _mm512_setzero_ps();
    for (int64_t i = 0; i < n; ++i) {
      float* row = state + i * n + j;
      const __m512 updated = _mm512_fmadd_ps(decay_v, _mm512_maskz_loadu_ps(m, row),
                                             _mm512_mul_ps(_mm512_set1_ps(k[i]), delta));
      _mm512_mask_storeu_ps(row, m, updated);
      read = _mm512_fmadd_ps(updated, _mm512_set1_ps(q[i]), read);
    }
    _mm512_mask_storeu_ps(out + j, m, _mm512_mul_ps(read, scale_v));
  }
}

}  // namespace ingot::kernels::avx512
