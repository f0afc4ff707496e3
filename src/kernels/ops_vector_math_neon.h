#pragma once
// Vector math shared by the NEON ops. Include only from *_neon.cpp.

#include <arm_neon.h>

#include <cstdint>

namespace ingot::kernels::neon {

// e^x to about 2 ulp: x = k ln2 + r with |r| <= ln2/2, e^r by its Taylor
// polynomial to r^7, 2^k built in the exponent bits (x is clamped first so
// that k stays in the normal range: e^-87 and e^88 are the ends).
inline float32x4_t exp_ps(float32x4_t x) {
  x = vmaxq_f32(x, vdupq_n_f32(-87.0f));
  x = vminq_f32(x, vdupq_n_f32(88.0f));
  const float32x4_t k = vrndnq_f32(vmulq_n_f32(x, 1.44269504088896341f));
  // ln2 split in two so that k * ln2 subtracts exactly.
  float32x4_t r = vfmsq_n_f32(x, k, 0.693145751953125f);
  r = vfmsq_n_f32(r, k, 1.428606765330187045e-06f);
  float32x4_t p = vdupq_n_f32(1.0f / 5040.0f);
  p = vfmaq_f32(vdupq_n_f32(1.0f / 720.0f), p, r);
  p = vfmaq_f32(vdupq_n_f32(1.0f / 120.0f), p, r);
  p = vfmaq_f32(vdupq_n_f32(1.0f / 24.0f), p, r);
  p = vfmaq_f32(vdupq_n_f32(1.0f / 6.0f), p, r);
  p = vfmaq_f32(vdupq_n_f32(0.5f), p, r);
  p = vfmaq_f32(vdupq_n_f32(1.0f), p, r);
  p = vfmaq_f32(vdupq_n_f32(1.0f), p, r);
  const int32x4_t exponent = vshlq_n_s32(vaddq_s32(vcvtq_s32_f32(k), vdupq_n_s32(127)), 23);
  return vmulq_f32(p, vreinterpretq_f32_s32(exponent));
}

// x / (1 + e^-x)
inline float32x4_t silu_ps(float32x4_t x) {
  return vdivq_f32(x, vaddq_f32(vdupq_n_f32(1.0f), exp_ps(vnegq_f32(x))));
}

// GELU's tanh form, x/2 (1 + tanh(z)) with z = sqrt(2/pi) (x + 0.044715 x^3),
// as x / (1 + e^(-2z)): the same function, one exp and no tanh.
inline float32x4_t gelu_ps(float32x4_t x) {
  const float32x4_t x3 = vmulq_f32(vmulq_f32(x, x), x);
  const float32x4_t inner = vfmaq_n_f32(x, x3, 0.044715f);
  const float32x4_t minus_2z = vmulq_n_f32(inner, -2.0f * 0.7978845608028654f);
  return vdivq_f32(x, vaddq_f32(vdupq_n_f32(1.0f), exp_ps(minus_2z)));
}

// `count` (< 4) floats, zeros past them; and their store.
inline float32x4_t load_tail(const float* p, int64_t count) {
  float lanes[4] = {};
  for (int64_t i = 0; i < count; ++i) lanes[i] = p[i];
  return vld1q_f32(lanes);
}

inline void store_tail(float* p, float32x4_t v, int64_t count) {
  float lanes[4];
  vst1q_f32(lanes, v);
  for (int64_t i = 0; i < count; ++i) p[i] = lanes[i];
}

}  // namespace ingot::kernels::neon
