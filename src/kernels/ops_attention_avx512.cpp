// GCC 12 flags the deliberately undefined lanes inside its own AVX-512
// intrinsics (_mm512_undefined_ps) as maybe-uninitialized: a false positive.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

#include <immintrin.h>

#include <algorithm>

#include "kernels/ops_attention.h"
#include "kernels/ops_vector_math_avx512.h"

namespace ingot::kernels::avx512 {
namespace {

// Sixteen positions per step: one vector of scores per head.
constexpr int64_t kStep = 16;
// Heads handled together: their score and output vectors stay in registers.
constexpr int kMaxHeads = 8;

// 16 F16 values (or the lanes of `mask`) widened to F32.
inline __m512 load_f16(const uint16_t* p, __mmask16 mask) {
  return _mm512_cvtph_ps(_mm256_maskz_loadu_epi16(mask, p));
}

// c tanh(s / c), tanh(x) = (e^2x - 1) / (e^2x + 1) with x clamped where
// tanh is 1 to float precision; s itself when c is 0.
inline __m512 soft_cap(__m512 s, float c) {
  if (c <= 0.0f) return s;
  const __m512 x =
      _mm512_max_ps(_mm512_min_ps(_mm512_div_ps(s, _mm512_set1_ps(c)), _mm512_set1_ps(9.0f)),
                    _mm512_set1_ps(-9.0f));
  const __m512 e = exp_ps(_mm512_add_ps(x, x));
  const __m512 one = _mm512_set1_ps(1.0f);
  return _mm512_mul_ps(_mm512_set1_ps(c),
                       _mm512_div_ps(_mm512_sub_ps(e, one), _mm512_add_ps(e, one)));
}

// scores[h] = scale * q_h . k_j for the positions of `mask`: each row of the
// transposed key tile is converted once and serves every head.
template <int kHeads>
void score(const float* q, const uint16_t* keys, int64_t key_stride, int64_t head_dim,
           ScoreScale scale, __mmask16 mask, __m512 (&scores)[kMaxHeads]) {
  for (int h = 0; h < kHeads; ++h) scores[h] = _mm512_setzero_ps();
  for (int64_t d = 0; d < head_dim; ++d) {
    const __m512 k = load_f16(keys + d * key_stride, mask);
    for (int h = 0; h < kHeads; ++h) {
      scores[h] = _mm512_fmadd_ps(_mm512_set1_ps(q[h * head_dim + d]), k, scores[h]);
    }
  }
  for (int h = 0; h < kHeads; ++h) {
    scores[h] = soft_cap(_mm512_mul_ps(scores[h], _mm512_set1_ps(scale.scale)), scale.softcap);
  }
}

// Turns each head's scores into weights e^(s - m') (0 outside `mask`),
// updating its running max and denominator; returns the output rescales.
template <int kHeads>
void update_softmax(__m512 (&scores)[kMaxHeads], __mmask16 mask, AttentionState* states,
                    float (&weights)[kMaxHeads][kStep], float (&rescale)[kMaxHeads]) {
  for (int h = 0; h < kHeads; ++h) {
    const float step_max = _mm512_mask_reduce_max_ps(mask, scores[h]);
    const float new_max = std::max(states[h].max_score, step_max);
    rescale[h] = std::exp(states[h].max_score - new_max);
    const __m512 w =
        _mm512_maskz_mov_ps(mask, exp_ps(_mm512_sub_ps(scores[h], _mm512_set1_ps(new_max))));
    _mm512_storeu_ps(weights[h], w);
    states[h].denominator = states[h].denominator * rescale[h] + _mm512_reduce_add_ps(w);
    states[h].max_score = new_max;
  }
}

// outputs[h] = outputs[h] * rescale[h] + sum_j weights[h][j] v_j, sixteen
// dimensions at a time; each converted slice of v serves every head.
template <int kHeads>
void accumulate_values(const uint16_t* values, int64_t count, int64_t head_dim,
                       const float (&weights)[kMaxHeads][kStep], const float (&rescale)[kMaxHeads],
                       float* outputs) {
  for (int64_t d = 0; d < head_dim; d += 16) {
    const __mmask16 m = lanes(head_dim - d);
    __m512 acc[kMaxHeads];
    for (int h = 0; h < kHeads; ++h) {
      acc[h] = _mm512_mul_ps(_mm512_maskz_loadu_ps(m, outputs + h * head_dim + d),
                             _mm512_set1_ps(rescale[h]));
    }
    for (int64_t j = 0; j < count; ++j) {
      const __m512 v = load_f16(values + j * head_dim + d, m);
      for (int h = 0; h < kHeads; ++h) {
        acc[h] = _mm512_fmadd_ps(_mm512_set1_ps(weights[h][j]), v, acc[h]);
      }
    }
    for (int h = 0; h < kHeads; ++h) _mm512_mask_storeu_ps(outputs + h * head_dim + d, m, acc[h]);
  }
}

template <int kHeads>
void accumulate_heads(const float* q, const uint16_t* keys, int64_t key_stride,
                      const uint16_t* values, int64_t n, int64_t head_dim, ScoreScale scale,
                      AttentionState* states, float* outputs) {
  __m512 scores[kMaxHeads];
  alignas(64) float weights[kMaxHeads][kStep];
  float rescale[kMaxHeads];
  for (int64_t start = 0; start < n; start += kStep) {
    const int64_t count = std::min(kStep, n - start);
    const __mmask16 mask = lanes(count);
    score<kHeads>(q, keys + start, key_stride, head_dim, scale, mask, scores);
    update_softmax<kHeads>(scores, mask, states, weights, rescale);
    accumulate_values<kHeads>(values + start * head_dim, count, head_dim, weights, rescale,
                              outputs);
  }
}

using HeadsFn = void (*)(const float*, const uint16_t*, int64_t, const uint16_t*, int64_t, int64_t,
                         ScoreScale, AttentionState*, float*);
constexpr HeadsFn kByHeadCount[kMaxHeads + 1] = {
    nullptr,
    &accumulate_heads<1>,
    &accumulate_heads<2>,
    &accumulate_heads<3>,
    &accumulate_heads<4>,
    &accumulate_heads<5>,
    &accumulate_heads<6>,
    &accumulate_heads<7>,
    &accumulate_heads<8>,
};

}  // namespace

void attention_accumulate(const float* q, int64_t n_q, const uint16_t* keys, int64_t key_stride,
                          const uint16_t* values, int64_t n, int64_t head_dim, ScoreScale scale,
                          AttentionState* states, float* outputs) {
  for (int64_t h = 0; h < n_q; h += kMaxHeads) {
    const int64_t heads = std::min<int64_t>(kMaxHeads, n_q - h);
    kByHeadCount[heads](q + h * head_dim, keys, key_stride, values, n, head_dim, scale, states + h,
                        outputs + h * head_dim);
  }
}

}  // namespace ingot::kernels::avx512
