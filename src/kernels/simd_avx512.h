#pragma once
// Small AVX-512 helpers for the *_avx512.cpp kernels. In an unnamed
// namespace so that no other file's (differently compiled) copy can stand
// in for them; include only from *_avx512.cpp.

#include <immintrin.h>

#include <cstdint>

namespace ingot::kernels {
namespace {

// Lanes 0-7 hold F16 scale a, lanes 8-15 F16 scale b (or 0 without b).
template <bool kPair>
inline __m512 f16_scale_pair(const uint16_t* a, const uint16_t* b) {
  const __m128i ha = _mm_set1_epi16(static_cast<short>(*a));
  const __m128i hb = kPair ? _mm_set1_epi16(static_cast<short>(*b)) : _mm_setzero_si128();
  return _mm512_cvtph_ps(_mm256_set_m128i(hb, ha));
}

// Lane 0 holds a, lane 8 holds b (or 0), every other lane 0.
template <bool kPair>
inline __m512i int_pair(int a, int b) {
  const __m512i v = _mm512_zextsi128_si512(_mm_cvtsi32_si128(a));
  return kPair ? _mm512_mask_set1_epi32(v, 0x100, b) : v;
}

// The 32 bytes at a and the 32 at b (or zeros) as one vector.
template <bool kPair>
inline __m512i load_32x2(const void* a, const void* b) {
  const __m256i lo = _mm256_loadu_si256(static_cast<const __m256i*>(a));
  const __m256i hi =
      kPair ? _mm256_loadu_si256(static_cast<const __m256i*>(b)) : _mm256_setzero_si256();
  return _mm512_inserti64x4(_mm512_castsi256_si512(lo), hi, 1);
}

}  // namespace
}  // namespace ingot::kernels
