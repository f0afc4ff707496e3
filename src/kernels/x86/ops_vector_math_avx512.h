#pragma once
// Vector math shared by the AVX-512 ops. Include only from *_avx512.cpp.

#include <immintrin.h>

#include <cstdint>

#include "kernels/exp_taylor.h"

namespace ingot::kernels::avx512 {

// e^x to about 2 ulp: x = k ln2 + r with |r| <= ln2/2, e^r by its Taylor
// polynomial to r^7, and 2^k applied with scalef (which saturates to 0 or
// inf instead of wrapping the exponent).
inline __m512 exp_ps(__m512 x) {
  x = _mm512_max_ps(x, _mm512_set1_ps(-104.0f));  // e^-104 is 0 in float; keeps r finite
  x = _mm512_min_ps(x, _mm512_set1_ps(89.0f));    // e^89 is inf in float
  const __m512 k = _mm512_roundscale_ps(_mm512_mul_ps(x, _mm512_set1_ps(1.44269504088896341f)),
                                        _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  // ln2 split in two so that k * ln2 subtracts exactly.
  __m512 r = _mm512_fnmadd_ps(k, _mm512_set1_ps(0.693145751953125f), x);
  r = _mm512_fnmadd_ps(k, _mm512_set1_ps(1.428606765330187045e-06f), r);
  __m512 p = _mm512_set1_ps(1.0f / 5040.0f);
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.0f / 720.0f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.0f / 120.0f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.0f / 24.0f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.0f / 6.0f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(0.5f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.0f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.0f));
  return _mm512_scalef_ps(p, k);
}

// e^d in double (exp_taylor.h), 2^k applied with scalef, which underflows
// to 0 and overflows to inf.
inline __m512d exp_pd(__m512d d) {
  using namespace exp_taylor;
  const __mmask8 nan = _mm512_cmp_pd_mask(d, d, _CMP_UNORD_Q);
  const __m512d x =
      _mm512_min_pd(_mm512_max_pd(d, _mm512_set1_pd(-kLimit)), _mm512_set1_pd(kLimit));
  const __m512d k = _mm512_roundscale_pd(_mm512_mul_pd(x, _mm512_set1_pd(kLog2E)),
                                         _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  __m512d r = _mm512_fnmadd_pd(k, _mm512_set1_pd(kLn2High), x);
  r = _mm512_fnmadd_pd(k, _mm512_set1_pd(kLn2Low), r);
  __m512d p = _mm512_set1_pd(kInverseFactorials[0]);
  for (int i = 1; i < kTerms; ++i) p = _mm512_fmadd_pd(p, r, _mm512_set1_pd(kInverseFactorials[i]));
  return _mm512_mask_mov_pd(_mm512_scalef_pd(p, k), nan, d);
}

// x / (1 + e^-x)
inline __m512 silu_ps(__m512 x) {
  const __m512 one = _mm512_set1_ps(1.0f);
  return _mm512_div_ps(x, _mm512_add_ps(one, exp_ps(_mm512_sub_ps(_mm512_setzero_ps(), x))));
}

// GELU's tanh form, x/2 (1 + tanh(z)) with z = sqrt(2/pi) (x + 0.044715 x^3),
// as x / (1 + e^(-2z)): the same function, one exp and no tanh.
inline __m512 gelu_ps(__m512 x) {
  const __m512 x3 = _mm512_mul_ps(_mm512_mul_ps(x, x), x);
  const __m512 inner = _mm512_fmadd_ps(_mm512_set1_ps(0.044715f), x3, x);
  const __m512 minus_2z = _mm512_mul_ps(inner, _mm512_set1_ps(-2.0f * 0.7978845608028654f));
  return _mm512_div_ps(x, _mm512_add_ps(_mm512_set1_ps(1.0f), exp_ps(minus_2z)));
}

// The lanes [0, n) of a tail shorter than 16.
inline __mmask16 tail_mask(int64_t n) {
  return __mmask16((1u << n) - 1u);
}

// The lanes of the next 16 values when `remaining` are left: all, or a tail.
inline __mmask16 lanes(int64_t remaining) {
  return remaining >= 16 ? __mmask16(0xffff) : tail_mask(remaining);
}

// The Floats policy of ops_float_shape.h: tails under masks.
struct Floats {
  using F = __m512;
  using D = __m512d;
  static constexpr int64_t kLanes = 16;

  static F load(const float* p) { return _mm512_loadu_ps(p); }
  static void store(float* p, F v) { _mm512_storeu_ps(p, v); }
  static F load_part(const float* p, int64_t count, float fill) {
    return _mm512_mask_loadu_ps(_mm512_set1_ps(fill), tail_mask(count), p);
  }
  static void store_part(float* p, F v, int64_t count) {
    _mm512_mask_storeu_ps(p, tail_mask(count), v);
  }
  static F first(F v, int64_t count) { return _mm512_maskz_mov_ps(tail_mask(count), v); }
  static F broadcast(float x) { return _mm512_set1_ps(x); }
  static F add(F a, F b) { return _mm512_add_ps(a, b); }
  static F sub(F a, F b) { return _mm512_sub_ps(a, b); }
  static F mul(F a, F b) { return _mm512_mul_ps(a, b); }
  static F max(F a, F b) { return _mm512_max_ps(a, b); }
  static F min(F a, F b) { return _mm512_min_ps(a, b); }
  static F div(F a, F b) { return _mm512_div_ps(a, b); }
  static F load_f16(const uint16_t* p) {
    return _mm512_cvtph_ps(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)));
  }
  static F load_f16_part(const uint16_t* p, int64_t count) {
    return _mm512_cvtph_ps(_mm256_maskz_loadu_epi16(tail_mask(count), p));
  }
  // BF16 is the top half of an F32: widen and shift.
  static F load_bf16(const uint16_t* p) {
    const __m256i h = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
    return _mm512_castsi512_ps(_mm512_slli_epi32(_mm512_cvtepu16_epi32(h), 16));
  }
  static F load_bf16_part(const uint16_t* p, int64_t count) {
    const __m256i h = _mm256_maskz_loadu_epi16(tail_mask(count), p);
    return _mm512_castsi512_ps(_mm512_slli_epi32(_mm512_cvtepu16_epi32(h), 16));
  }
  static F fmadd(F a, F b, F c) { return _mm512_fmadd_ps(a, b, c); }
  static F fnmadd(F a, F b, F c) { return _mm512_fnmadd_ps(a, b, c); }
  static float reduce_add(F v) { return _mm512_reduce_add_ps(v); }
  static float reduce_max(F v) { return _mm512_reduce_max_ps(v); }
  static F exp(F x) { return exp_ps(x); }
  static F silu(F x) { return silu_ps(x); }
  static F gelu(F x) { return gelu_ps(x); }

  static D widen_low(F v) { return _mm512_cvtps_pd(_mm512_castps512_ps256(v)); }
  static D widen_high(F v) { return _mm512_cvtps_pd(_mm512_extractf32x8_ps(v, 1)); }
  static D zero_d() { return _mm512_setzero_pd(); }
  static D add_d(D a, D b) { return _mm512_add_pd(a, b); }
  static D fmadd_d(D a, D b, D c) { return _mm512_fmadd_pd(a, b, c); }
  static D exp_d(D d) { return exp_pd(d); }
  static void store_d(double* p, D v) { _mm512_storeu_pd(p, v); }
  static double reduce_add_d(D v) { return _mm512_reduce_add_pd(v); }
};

}  // namespace ingot::kernels::avx512
