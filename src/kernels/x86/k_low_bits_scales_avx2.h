#pragma once
// The sub-block scales (and Q2_K's mins) of a Q2_K or Q3_K super-block as
// 16 words, for the AVX2 and AVX-512 low-bit kernels
// (matmul_k_low_bits_<isa>.cpp). Everything is in an unnamed namespace:
// each of those files gets its own copy for its instructions (block_formats.h's
// q3_k_scales, an inline function, could have its baseline copy replaced by
// one compiled here).

#include <immintrin.h>

#include <cstdint>
#include <cstring>

#include "kernels/block_formats.h"

namespace ingot::kernels {
namespace {

inline uint32_t load_u32(const uint8_t* p) {
  uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}

// Q2_K: the scales are the low nibbles of its 16 scale bytes.
inline __m256i q2_k_scale_words(const BlockQ2_K& b) {
  const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(b.scales));
  return _mm256_cvtepu8_epi16(_mm_and_si128(bytes, _mm_set1_epi8(0x0f)));
}

// Q2_K: the mins are the high nibbles.
inline __m256i q2_k_min_words(const BlockQ2_K& b) {
  const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(b.scales));
  return _mm256_cvtepu8_epi16(_mm_and_si128(_mm_srli_epi16(bytes, 4), _mm_set1_epi8(0x0f)));
}

// Q3_K: 16 six-bit scales minus their bias 32, unpacked as q3_k_scales
// does: low nibbles from bytes 0..7, high bit pairs from bytes 8..11.
inline __m256i q3_k_scale_words(const BlockQ3_K& b) {
  const uint32_t a0 = load_u32(b.scales), a1 = load_u32(b.scales + 4), hi = load_u32(b.scales + 8);
  const uint32_t m4 = 0x0f0f0f0fu, m2 = 0x03030303u;
  const __m128i packed =
      _mm_setr_epi32(static_cast<int>((a0 & m4) | ((hi & m2) << 4)),
                     static_cast<int>((a1 & m4) | (((hi >> 2) & m2) << 4)),
                     static_cast<int>(((a0 >> 4) & m4) | (((hi >> 4) & m2) << 4)),
                     static_cast<int>(((a1 >> 4) & m4) | (((hi >> 6) & m2) << 4)));
  return _mm256_cvtepi8_epi16(_mm_sub_epi8(packed, _mm_set1_epi8(32)));
}

}  // namespace
}  // namespace ingot::kernels
