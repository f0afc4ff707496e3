// GCC 12 flags the deliberately undefined lanes inside its own AVX-512
// intrinsics (_mm512_undefined_ps) as maybe-uninitialized: a false positive.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

#include <immintrin.h>

#include <algorithm>

#include "kernels/ops_attention.h"
#include "kernels/ops_vector_math_avx512.h"

namespace ingot::kernels::avx512 {
namespace {

// 16 F16 values (or the first `mask` lanes) widened to F32.
inline __m512 load_f16(const uint16_t* p, __mmask16 mask) {
  return _mm512_cvtph_ps(_mm256_maskz_loadu_epi16(mask, p));
}

inline __mmask16 lanes(int64_t remaining) {
  return remaining >= 16 ? __mmask16(0xffff) : tail_mask(remaining);
}

float dot_f16(const float* q, const uint16_t* k, int64_t n) {
  __m512 sum = _mm512_setzero_ps();
  for (int64_t d = 0; d < n; d += 16) {
    const __mmask16 m = lanes(n - d);
    sum = _mm512_fmadd_ps(_mm512_maskz_loadu_ps(m, q + d), load_f16(k + d, m), sum);
  }
  return _mm512_reduce_add_ps(sum);
}

// scores[j] <- e^(scores[j] - max), returning their sum.
float exponentiate(float* scores, int64_t count, float max) {
  const __m512 shift = _mm512_set1_ps(max);
  __m512 sum = _mm512_setzero_ps();
  for (int64_t j = 0; j < count; j += 16) {
    const __mmask16 m = lanes(count - j);
    const __m512 e = exp_ps(_mm512_sub_ps(_mm512_maskz_loadu_ps(m, scores + j), shift));
    _mm512_mask_storeu_ps(scores + j, m, e);
    sum = _mm512_mask_add_ps(sum, m, sum, e);
  }
  return _mm512_reduce_add_ps(sum);
}

// output <- output * rescale + sum_j weights[j] v_j, sixteen dimensions at a
// time so each slice of the output stays in a register across positions.
void accumulate_values(const float* weights, const uint16_t* v, int64_t count, int64_t head_dim,
                       float rescale, float* output) {
  for (int64_t d = 0; d < head_dim; d += 16) {
    const __mmask16 m = lanes(head_dim - d);
    __m512 acc = _mm512_mul_ps(_mm512_maskz_loadu_ps(m, output + d), _mm512_set1_ps(rescale));
    for (int64_t j = 0; j < count; ++j) {
      acc = _mm512_fmadd_ps(_mm512_set1_ps(weights[j]), load_f16(v + j * head_dim + d, m), acc);
    }
    _mm512_mask_storeu_ps(output + d, m, acc);
  }
}

}  // namespace

void attention_accumulate(const float* q, const uint16_t* keys, const uint16_t* values, int64_t n,
                          int64_t head_dim, float scale, AttentionState& state, float* output) {
  constexpr int64_t kChunk = 64;
  alignas(64) float scores[kChunk];
  for (int64_t start = 0; start < n; start += kChunk) {
    const int64_t count = std::min(kChunk, n - start);
    const uint16_t* k = keys + start * head_dim;
    float chunk_max = -INFINITY;
    for (int64_t j = 0; j < count; ++j) {
      scores[j] = scale * dot_f16(q, k + j * head_dim, head_dim);
      chunk_max = std::max(chunk_max, scores[j]);
    }
    const float new_max = std::max(state.max_score, chunk_max);
    const float rescale = std::exp(state.max_score - new_max);
    state.denominator = state.denominator * rescale + exponentiate(scores, count, new_max);
    accumulate_values(scores, values + start * head_dim, count, head_dim, rescale, output);
    state.max_score = new_max;
  }
}

}  // namespace ingot::kernels::avx512
