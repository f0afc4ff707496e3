#include <immintrin.h>

#include <algorithm>
#include <cmath>

#include "kernels/ops_attention.h"
#include "kernels/ops_vector_math_avx2.h"

// The AVX-512 path's algorithm (ops_attention_avx512.cpp) on 8-lane
// vectors, for CPUs without AVX-512: eight positions per step.
namespace ingot::kernels::avx2 {
namespace {

constexpr int64_t kStep = 8;
constexpr int kMaxHeads = 8;

// c tanh(s / c), tanh(x) = (e^2x - 1) / (e^2x + 1) with x clamped where
// tanh is 1 to float precision; s itself when c is 0.
inline __m256 soft_cap(__m256 s, float c) {
  if (c <= 0.0f) return s;
  const __m256 x =
      _mm256_max_ps(_mm256_min_ps(_mm256_div_ps(s, _mm256_set1_ps(c)), _mm256_set1_ps(9.0f)),
                    _mm256_set1_ps(-9.0f));
  const __m256 e = exp_ps(_mm256_add_ps(x, x));
  const __m256 one = _mm256_set1_ps(1.0f);
  return _mm256_mul_ps(_mm256_set1_ps(c),
                       _mm256_div_ps(_mm256_sub_ps(e, one), _mm256_add_ps(e, one)));
}

// `count` (<= 8) F16 values widened to F32, zeros past them.
inline __m256 load_f16(const uint16_t* p, int64_t count) {
  if (count >= 8) return _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
  alignas(16) uint16_t tail[8] = {};
  std::copy_n(p, count, tail);
  return _mm256_cvtph_ps(_mm_load_si128(reinterpret_cast<const __m128i*>(tail)));
}

inline __m256 load_f32(const float* p, int64_t count) {
  if (count >= 8) return _mm256_loadu_ps(p);
  alignas(32) float tail[8] = {};
  std::copy_n(p, count, tail);
  return _mm256_load_ps(tail);
}

inline void store_f32(float* p, __m256 v, int64_t count) {
  if (count >= 8) return _mm256_storeu_ps(p, v);
  alignas(32) float tail[8];
  _mm256_store_ps(tail, v);
  std::copy_n(tail, count, p);
}

template <int kHeads>
void accumulate_heads(const float* q, const uint16_t* keys, int64_t key_stride,
                      const uint16_t* values, int64_t n, int64_t head_dim, ScoreScale scale,
                      AttentionState* states, float* outputs) {
  alignas(32) float weights[kMaxHeads][kStep];
  float rescale[kMaxHeads];
  for (int64_t start = 0; start < n; start += kStep) {
    const int64_t count = std::min(kStep, n - start);
    // Lanes past `count` score -inf so that they weigh nothing.
    alignas(32) float lane_bias[kStep];
    for (int64_t j = 0; j < kStep; ++j) lane_bias[j] = j < count ? 0.0f : -INFINITY;
    __m256 scores[kMaxHeads];
    for (int h = 0; h < kHeads; ++h) scores[h] = _mm256_setzero_ps();
    for (int64_t d = 0; d < head_dim; ++d) {
      const __m256 k = load_f16(keys + d * key_stride + start, count);
      for (int h = 0; h < kHeads; ++h) {
        scores[h] = _mm256_fmadd_ps(_mm256_set1_ps(q[h * head_dim + d]), k, scores[h]);
      }
    }
    for (int h = 0; h < kHeads; ++h) {
      const __m256 s = _mm256_add_ps(
          soft_cap(_mm256_mul_ps(scores[h], _mm256_set1_ps(scale.scale)), scale.softcap),
          _mm256_load_ps(lane_bias));
      const float new_max = std::max(states[h].max_score, horizontal_max(s));
      rescale[h] = std::exp(states[h].max_score - new_max);
      const __m256 w = exp_ps(_mm256_sub_ps(s, _mm256_set1_ps(new_max)));
      _mm256_store_ps(weights[h], w);
      states[h].denominator = states[h].denominator * rescale[h] + horizontal_sum(w);
      states[h].max_score = new_max;
    }
    const uint16_t* v = values + start * head_dim;
    for (int64_t d = 0; d < head_dim; d += 8) {
      const int64_t width = std::min<int64_t>(8, head_dim - d);
      __m256 acc[kMaxHeads];
      for (int h = 0; h < kHeads; ++h) {
        acc[h] =
            _mm256_mul_ps(load_f32(outputs + h * head_dim + d, width), _mm256_set1_ps(rescale[h]));
      }
      for (int64_t j = 0; j < count; ++j) {
        const __m256 vj = load_f16(v + j * head_dim + d, width);
        for (int h = 0; h < kHeads; ++h) {
          acc[h] = _mm256_fmadd_ps(_mm256_set1_ps(weights[h][j]), vj, acc[h]);
        }
      }
      for (int h = 0; h < kHeads; ++h) store_f32(outputs + h * head_dim + d, acc[h], width);
    }
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

}  // namespace ingot::kernels::avx2
