#pragma once
// Vector math shared by the NEON ops. Include only from *_neon.cpp.

#include <arm_neon.h>

#include <cstdint>

#include "kernels/exp_taylor.h"

namespace ingot::kernels::neon {

// e^x to about 2 ulp: x = k ln2 + r with |r| <= ln2/2, e^r by its Taylor
// polynomial to r^7, 2^k built in the exponent bits (x is clamped first so
// that k stays in the normal range: e^-87 and e^88 are the ends). Below the
// clamp the result is 0, as a float's e^x is there to within its smallest
// normal value.
inline float32x4_t exp_ps(float32x4_t x) {
  const uint32x4_t underflow = vcltq_f32(x, vdupq_n_f32(-87.0f));
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
  const float32x4_t e = vmulq_f32(p, vreinterpretq_f32_s32(exponent));
  return vreinterpretq_f32_u32(vbicq_u32(vreinterpretq_u32_f32(e), underflow));
}

// 2^k for k in the normal exponents' range.
inline float64x2_t power_of_two(int64x2_t k) {
  return vreinterpretq_f64_s64(vshlq_n_s64(vaddq_s64(k, vdupq_n_s64(1023)), 52));
}

// e^d in double (exp_taylor.h). NEON has no scalef, so 2^k is applied as
// 2^(k/2) 2^(k - k/2), two normal powers, so results that underflow to
// subnormals or zero round once, as std::exp's do.
inline float64x2_t exp_pd(float64x2_t d) {
  using namespace exp_taylor;
  // NaN passes through max, min and the arithmetic as NaN.
  const float64x2_t x = vminq_f64(vmaxq_f64(d, vdupq_n_f64(-kLimit)), vdupq_n_f64(kLimit));
  const float64x2_t k = vrndnq_f64(vmulq_f64(x, vdupq_n_f64(kLog2E)));
  float64x2_t r = vfmsq_f64(x, k, vdupq_n_f64(kLn2High));
  r = vfmsq_f64(r, k, vdupq_n_f64(kLn2Low));
  float64x2_t p = vdupq_n_f64(kInverseFactorials[0]);
  for (int i = 1; i < kTerms; ++i) p = vfmaq_f64(vdupq_n_f64(kInverseFactorials[i]), p, r);
  const int64x2_t k_int = vcvtq_s64_f64(k);
  const int64x2_t k_half = vshrq_n_s64(k_int, 1);
  return vmulq_f64(vmulq_f64(p, power_of_two(k_half)), power_of_two(vsubq_s64(k_int, k_half)));
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

// The Floats policy of ops_float_shape.h: tails through a vector on the stack.
struct Floats {
  using F = float32x4_t;
  using D = float64x2_t;
  static constexpr int64_t kLanes = 4;

  static F load(const float* p) { return vld1q_f32(p); }
  static void store(float* p, F v) { vst1q_f32(p, v); }
  static F load_part(const float* p, int64_t count, float fill) {
    float lanes[4] = {fill, fill, fill, fill};
    for (int64_t i = 0; i < count; ++i) lanes[i] = p[i];
    return vld1q_f32(lanes);
  }
  static void store_part(float* p, F v, int64_t count) {
    float lanes[4];
    vst1q_f32(lanes, v);
    for (int64_t i = 0; i < count; ++i) p[i] = lanes[i];
  }
  static F first(F v, int64_t count) {
    const int32x4_t index = {0, 1, 2, 3};
    const uint32x4_t keep = vcltq_s32(index, vdupq_n_s32(static_cast<int32_t>(count)));
    return vreinterpretq_f32_u32(vandq_u32(vreinterpretq_u32_f32(v), keep));
  }
  static F broadcast(float x) { return vdupq_n_f32(x); }
  static F add(F a, F b) { return vaddq_f32(a, b); }
  static F sub(F a, F b) { return vsubq_f32(a, b); }
  static F mul(F a, F b) { return vmulq_f32(a, b); }
  static F max(F a, F b) { return vmaxq_f32(a, b); }
  static F min(F a, F b) { return vminq_f32(a, b); }
  static F div(F a, F b) { return vdivq_f32(a, b); }
  static F load_f16(const uint16_t* p) { return vcvt_f32_f16(vreinterpret_f16_u16(vld1_u16(p))); }
  static F load_f16_part(const uint16_t* p, int64_t count) {
    uint16_t tail[4] = {};
    for (int64_t i = 0; i < count; ++i) tail[i] = p[i];
    return load_f16(tail);
  }
  // BF16 is the top half of an F32: widen and shift.
  static F load_bf16(const uint16_t* p) {
    return vreinterpretq_f32_u32(vshll_n_u16(vld1_u16(p), 16));
  }
  static F load_bf16_part(const uint16_t* p, int64_t count) {
    uint16_t tail[4] = {};
    for (int64_t i = 0; i < count; ++i) tail[i] = p[i];
    return load_bf16(tail);
  }
  static F fmadd(F a, F b, F c) { return vfmaq_f32(c, a, b); }
  static F fnmadd(F a, F b, F c) { return vfmsq_f32(c, a, b); }
  static float reduce_add(F v) { return vaddvq_f32(v); }
  static float reduce_max(F v) { return vmaxvq_f32(v); }
  static F exp(F x) { return exp_ps(x); }
  static F silu(F x) { return silu_ps(x); }
  static F gelu(F x) { return gelu_ps(x); }

  static D widen_low(F v) { return vcvt_f64_f32(vget_low_f32(v)); }
  static D widen_high(F v) { return vcvt_high_f64_f32(v); }
  static D zero_d() { return vdupq_n_f64(0.0); }
  static D add_d(D a, D b) { return vaddq_f64(a, b); }
  static D fmadd_d(D a, D b, D c) { return vfmaq_f64(c, a, b); }
  static D exp_d(D d) { return exp_pd(d); }
  static void store_d(double* p, D v) { vst1q_f64(p, v); }
  static double reduce_add_d(D v) { return vaddvq_f64(v); }
};

}  // namespace ingot::kernels::neon
