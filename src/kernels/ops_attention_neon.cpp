#include <arm_neon.h>

#include <algorithm>
#include <cmath>

#include "kernels/ops_attention.h"
#include "kernels/ops_vector_math_neon.h"

// The AVX2 path's algorithm (ops_attention_avx2.cpp) on pairs of 4-lane
// vectors: eight positions per step.
namespace ingot::kernels::neon {
namespace {

constexpr int64_t kStep = 8;
constexpr int kMaxHeads = 8;

struct Floats8 {
  float32x4_t lo, hi;
};

// c tanh(s / c), tanh(x) = (e^2x - 1) / (e^2x + 1) with x clamped where
// tanh is 1 to float precision; s itself when c is 0.
inline float32x4_t soft_cap(float32x4_t s, float c) {
  if (c <= 0.0f) return s;
  const float32x4_t x =
      vmaxq_f32(vminq_f32(vmulq_n_f32(s, 1.0f / c), vdupq_n_f32(9.0f)), vdupq_n_f32(-9.0f));
  const float32x4_t e = exp_ps(vaddq_f32(x, x));
  const float32x4_t one = vdupq_n_f32(1.0f);
  return vmulq_n_f32(vdivq_f32(vsubq_f32(e, one), vaddq_f32(e, one)), c);
}

// `count` (<= 8) F16 values widened to F32, zeros past them.
inline Floats8 load_f16(const uint16_t* p, int64_t count) {
  uint16x8_t bits;
  if (count >= 8) {
    bits = vld1q_u16(p);
  } else {
    uint16_t tail[8] = {};
    std::copy_n(p, count, tail);
    bits = vld1q_u16(tail);
  }
  const float16x8_t h = vreinterpretq_f16_u16(bits);
  return {vcvt_f32_f16(vget_low_f16(h)), vcvt_high_f32_f16(h)};
}

inline Floats8 load_f32(const float* p, int64_t count) {
  if (count >= 8) return {vld1q_f32(p), vld1q_f32(p + 4)};
  float tail[8] = {};
  std::copy_n(p, count, tail);
  return {vld1q_f32(tail), vld1q_f32(tail + 4)};
}

inline void store_f32(float* p, Floats8 v, int64_t count) {
  if (count >= 8) {
    vst1q_f32(p, v.lo);
    vst1q_f32(p + 4, v.hi);
    return;
  }
  float tail[8];
  vst1q_f32(tail, v.lo);
  vst1q_f32(tail + 4, v.hi);
  std::copy_n(tail, count, p);
}

template <int kHeads>
void accumulate_heads(const float* q, const uint16_t* keys, int64_t key_stride,
                      const uint16_t* values, int64_t n, int64_t head_dim, ScoreScale scale,
                      AttentionState* states, float* outputs) {
  float weights[kMaxHeads][kStep];
  float rescale[kMaxHeads];
  for (int64_t start = 0; start < n; start += kStep) {
    const int64_t count = std::min(kStep, n - start);
    // Lanes past `count` score -inf so that they weigh nothing.
    float lane_bias[kStep];
    for (int64_t j = 0; j < kStep; ++j) lane_bias[j] = j < count ? 0.0f : -INFINITY;
    Floats8 scores[kMaxHeads];
    for (int h = 0; h < kHeads; ++h) scores[h] = {vdupq_n_f32(0.0f), vdupq_n_f32(0.0f)};
    for (int64_t d = 0; d < head_dim; ++d) {
      const Floats8 k = load_f16(keys + d * key_stride + start, count);
      for (int h = 0; h < kHeads; ++h) {
        const float qd = q[h * head_dim + d];
        scores[h].lo = vfmaq_n_f32(scores[h].lo, k.lo, qd);
        scores[h].hi = vfmaq_n_f32(scores[h].hi, k.hi, qd);
      }
    }
    for (int h = 0; h < kHeads; ++h) {
      const float32x4_t s_lo = vaddq_f32(
          soft_cap(vmulq_n_f32(scores[h].lo, scale.scale), scale.softcap), vld1q_f32(lane_bias));
      const float32x4_t s_hi =
          vaddq_f32(soft_cap(vmulq_n_f32(scores[h].hi, scale.scale), scale.softcap),
                    vld1q_f32(lane_bias + 4));
      const float new_max = std::max(states[h].max_score, vmaxvq_f32(vmaxq_f32(s_lo, s_hi)));
      rescale[h] = std::exp(states[h].max_score - new_max);
      const float32x4_t w_lo = exp_ps(vsubq_f32(s_lo, vdupq_n_f32(new_max)));
      const float32x4_t w_hi = exp_ps(vsubq_f32(s_hi, vdupq_n_f32(new_max)));
      // exp_ps clamps -inf to e^-87: lanes past `count` must weigh nothing.
      vst1q_f32(weights[h], w_lo);
      vst1q_f32(weights[h] + 4, w_hi);
      for (int64_t j = count; j < kStep; ++j) weights[h][j] = 0.0f;
      float added = 0.0f;
      for (int64_t j = 0; j < count; ++j) added += weights[h][j];
      states[h].denominator = states[h].denominator * rescale[h] + added;
      states[h].max_score = new_max;
    }
    const uint16_t* v = values + start * head_dim;
    for (int64_t d = 0; d < head_dim; d += 8) {
      const int64_t width = std::min<int64_t>(8, head_dim - d);
      Floats8 acc[kMaxHeads];
      for (int h = 0; h < kHeads; ++h) {
        const Floats8 o = load_f32(outputs + h * head_dim + d, width);
        acc[h] = {vmulq_n_f32(o.lo, rescale[h]), vmulq_n_f32(o.hi, rescale[h])};
      }
      for (int64_t j = 0; j < count; ++j) {
        const Floats8 vj = load_f16(v + j * head_dim + d, width);
        for (int h = 0; h < kHeads; ++h) {
          acc[h].lo = vfmaq_n_f32(acc[h].lo, vj.lo, weights[h][j]);
          acc[h].hi = vfmaq_n_f32(acc[h].hi, vj.hi, weights[h][j]);
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

}  // namespace ingot::kernels::neon
