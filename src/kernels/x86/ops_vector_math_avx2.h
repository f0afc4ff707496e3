#pragma once
// Vector math shared by the AVX2 ops, and their Floats policy for
// ops_float_shape.h. Include only from *_avx2.cpp.

#include <immintrin.h>

#include <algorithm>
#include <cstdint>

#include "kernels/exp_taylor.h"
#include "kernels/x86/horizontal_reduce_avx2.h"

namespace ingot::kernels::avx2 {

// e^x to about 2 ulp: x = k ln2 + r with |r| <= ln2/2, e^r by its Taylor
// polynomial to r^7, 2^k built in the exponent bits. x is clamped so that
// k stays in the normal range (AVX2 has no scalef), and below the clamp
// the result is 0, as a float's e^x is there to within its smallest
// normal value.
inline __m256 exp_ps(__m256 x) {
  const __m256 underflow = _mm256_cmp_ps(x, _mm256_set1_ps(-87.0f), _CMP_LT_OQ);
  x = _mm256_max_ps(x, _mm256_set1_ps(-87.0f));
  x = _mm256_min_ps(x, _mm256_set1_ps(88.0f));
  const __m256 k = _mm256_round_ps(_mm256_mul_ps(x, _mm256_set1_ps(1.44269504088896341f)),
                                   _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  // ln2 split in two so that k * ln2 subtracts exactly.
  __m256 r = _mm256_fnmadd_ps(k, _mm256_set1_ps(0.693145751953125f), x);
  r = _mm256_fnmadd_ps(k, _mm256_set1_ps(1.428606765330187045e-06f), r);
  __m256 p = _mm256_set1_ps(1.0f / 5040.0f);
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(1.0f / 720.0f));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(1.0f / 120.0f));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(1.0f / 24.0f));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(1.0f / 6.0f));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(0.5f));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(1.0f));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(1.0f));
  const __m256i exponent =
      _mm256_slli_epi32(_mm256_add_epi32(_mm256_cvtps_epi32(k), _mm256_set1_epi32(127)), 23);
  return _mm256_andnot_ps(underflow, _mm256_mul_ps(p, _mm256_castsi256_ps(exponent)));
}

// 2^k for k (in 32-bit lanes) in the normal exponents' range.
inline __m256d power_of_two(__m128i k) {
  return _mm256_castsi256_pd(
      _mm256_slli_epi64(_mm256_add_epi64(_mm256_cvtepi32_epi64(k), _mm256_set1_epi64x(1023)), 52));
}

// e^d in double (exp_taylor.h). AVX2 has no scalef, so 2^k is applied as
// 2^(k/2) 2^(k - k/2), two normal powers, so results that underflow to
// subnormals or zero round once, as std::exp's do. NaN stays NaN.
inline __m256d exp_pd(__m256d d) {
  using namespace exp_taylor;
  const __m256d nan = _mm256_cmp_pd(d, d, _CMP_UNORD_Q);
  const __m256d x =
      _mm256_min_pd(_mm256_max_pd(d, _mm256_set1_pd(-kLimit)), _mm256_set1_pd(kLimit));
  const __m256d k = _mm256_round_pd(_mm256_mul_pd(x, _mm256_set1_pd(kLog2E)),
                                    _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  __m256d r = _mm256_fnmadd_pd(k, _mm256_set1_pd(kLn2High), x);
  r = _mm256_fnmadd_pd(k, _mm256_set1_pd(kLn2Low), r);
  __m256d p = _mm256_set1_pd(kInverseFactorials[0]);
  for (int i = 1; i < kTerms; ++i) p = _mm256_fmadd_pd(p, r, _mm256_set1_pd(kInverseFactorials[i]));
  const __m128i k_int = _mm256_cvtpd_epi32(k);
  const __m128i k_half = _mm_srai_epi32(k_int, 1);
  const __m256d e = _mm256_mul_pd(_mm256_mul_pd(p, power_of_two(k_half)),
                                  power_of_two(_mm_sub_epi32(k_int, k_half)));
  return _mm256_blendv_pd(e, d, nan);
}

// x / (1 + e^-x)
inline __m256 silu_ps(__m256 x) {
  const __m256 one = _mm256_set1_ps(1.0f);
  return _mm256_div_ps(x, _mm256_add_ps(one, exp_ps(_mm256_sub_ps(_mm256_setzero_ps(), x))));
}

// GELU's tanh form, x/2 (1 + tanh(z)) with z = sqrt(2/pi) (x + 0.044715 x^3),
// as x / (1 + e^(-2z)): the same function, one exp and no tanh.
inline __m256 gelu_ps(__m256 x) {
  const __m256 x3 = _mm256_mul_ps(_mm256_mul_ps(x, x), x);
  const __m256 inner = _mm256_fmadd_ps(_mm256_set1_ps(0.044715f), x3, x);
  const __m256 minus_2z = _mm256_mul_ps(inner, _mm256_set1_ps(-2.0f * 0.7978845608028654f));
  return _mm256_div_ps(x, _mm256_add_ps(_mm256_set1_ps(1.0f), exp_ps(minus_2z)));
}

// All ones in the lanes [0, count), zeros in the rest.
inline __m256i lanes_below(int64_t count) {
  return _mm256_cmpgt_epi32(_mm256_set1_epi32(static_cast<int>(count)),
                            _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
}

struct Floats {
  using F = __m256;
  using D = __m256d;
  static constexpr int64_t kLanes = 8;

  static F load(const float* p) { return _mm256_loadu_ps(p); }
  static void store(float* p, F v) { _mm256_storeu_ps(p, v); }
  static F load_part(const float* p, int64_t count, float fill) {
    const __m256i m = lanes_below(count);
    return _mm256_blendv_ps(_mm256_set1_ps(fill), _mm256_maskload_ps(p, m), _mm256_castsi256_ps(m));
  }
  static void store_part(float* p, F v, int64_t count) {
    _mm256_maskstore_ps(p, lanes_below(count), v);
  }
  static F first(F v, int64_t count) {
    return _mm256_and_ps(v, _mm256_castsi256_ps(lanes_below(count)));
  }
  static F broadcast(float x) { return _mm256_set1_ps(x); }
  static F add(F a, F b) { return _mm256_add_ps(a, b); }
  static F sub(F a, F b) { return _mm256_sub_ps(a, b); }
  static F mul(F a, F b) { return _mm256_mul_ps(a, b); }
  static F max(F a, F b) { return _mm256_max_ps(a, b); }
  static F min(F a, F b) { return _mm256_min_ps(a, b); }
  static F div(F a, F b) { return _mm256_div_ps(a, b); }
  static F load_f16(const uint16_t* p) {
    return _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
  }
  static F load_f16_part(const uint16_t* p, int64_t count) {
    alignas(16) uint16_t tail[8] = {};
    std::copy_n(p, count, tail);
    return _mm256_cvtph_ps(_mm_load_si128(reinterpret_cast<const __m128i*>(tail)));
  }
  // BF16 is the top half of an F32: widen and shift.
  static F load_bf16(const uint16_t* p) {
    const __m128i h = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    return _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_cvtepu16_epi32(h), 16));
  }
  static F load_bf16_part(const uint16_t* p, int64_t count) {
    alignas(16) uint16_t tail[8] = {};
    std::copy_n(p, count, tail);
    return load_bf16(tail);
  }
  static F fmadd(F a, F b, F c) { return _mm256_fmadd_ps(a, b, c); }
  static F fnmadd(F a, F b, F c) { return _mm256_fnmadd_ps(a, b, c); }
  static float reduce_add(F v) { return horizontal_sum(v); }
  static float reduce_max(F v) { return horizontal_max(v); }
  static F exp(F x) { return exp_ps(x); }
  static F silu(F x) { return silu_ps(x); }
  static F gelu(F x) { return gelu_ps(x); }

  static D widen_low(F v) { return _mm256_cvtps_pd(_mm256_castps256_ps128(v)); }
  static D widen_high(F v) { return _mm256_cvtps_pd(_mm256_extractf128_ps(v, 1)); }
  static D zero_d() { return _mm256_setzero_pd(); }
  static D add_d(D a, D b) { return _mm256_add_pd(a, b); }
  static D fmadd_d(D a, D b, D c) { return _mm256_fmadd_pd(a, b, c); }
  static D exp_d(D d) { return exp_pd(d); }
  static void store_d(double* p, D v) { _mm256_storeu_pd(p, v); }
  static double reduce_add_d(D v) {
    const __m128d s2 = _mm_add_pd(_mm256_castpd256_pd128(v), _mm256_extractf128_pd(v, 1));
    return _mm_cvtsd_f64(_mm_add_sd(s2, _mm_unpackhi_pd(s2, s2)));
  }
};

}  // namespace ingot::kernels::avx2
