#pragma once
// The 256-bit vector operations of the interleaved kernels
// (matmul_interleaved_shape.h): a vector holds half a group's lanes, so a
// group takes two passes. Dot adds four byte products into each lane: one
// vpdpbusd with AVX-VNNI (matmul_interleaved_avxvnni.cpp); without
// (matmul_interleaved_avx2.cpp), vpmaddubsw's 16-bit pair sums of several
// steps added up, then one vpmaddwd. AVX2 has 16 vector
// registers, so its micro-tiles are smaller than AVX-512's.
//
// Include only from the files above.

#include <immintrin.h>

#include <cstdint>

#include "kernels/shapes/matmul_interleaved_shape.h"
#include "kernels/x86/horizontal_reduce_avx2.h"
#include "kernels/x86/matmul_kernels_avx2.h"

namespace ingot::kernels {
namespace {

template <class Dot>
struct Avx2Lanes {
  using I = __m256i;
  using F = __m256;
  static constexpr int kLanes = 8;
  static constexpr int kHalves = 2;
  static constexpr int kRows = 2;
  static constexpr int kTokens = 3;
  static constexpr int kDecodeRows = 4;
  static constexpr int kSmallBatchRows = 3;  // divides matmul's claims of 6 rows
  static constexpr int kSplitDotsUpTo = 0;

  static I load(const uint8_t* p) { return _mm256_loadu_si256(reinterpret_cast<const I*>(p)); }
  static I zero() { return _mm256_setzero_si256(); }
  static I bytes(char b) { return _mm256_set1_epi8(b); }
  static I add(I a, I b) { return _mm256_add_epi32(a, b); }
  static I sub(I a, I b) { return _mm256_sub_epi32(a, b); }
  template <int kBits>
  static I shift_left(I v) {
    return _mm256_slli_epi32(v, kBits);
  }
  template <int kBits>
  static I shift_words_right(I v) {
    return _mm256_srli_epi16(v, kBits);
  }
  static I dot(I acc, I u, I s) { return Dot::dot(acc, u, s); }
  // Without VNNI: 16-bit pair sums (vpmaddubsw), added up (vpaddw) over
  // several steps, then widened into the 32-bit lanes (vpmaddwd by ones).
  static constexpr bool kPairSums = Dot::kPairSums;
  static I pair_products(I u, I s) { return _mm256_maddubs_epi16(u, s); }
  // The saturating add, which never saturates here (pair_sum_steps), is
  // not associative: with the plain add GCC regrouped a run's sums and
  // kept every product live at once, spilling them.
  static I add_pairs(I a, I b) { return _mm256_adds_epi16(a, b); }
  // The empty asm keeps each widening in its place in the chain, for the
  // reason add_pairs saturates: GCC would otherwise regroup the 32-bit adds.
  static I widen_pairs(I acc, I pairs) {
    I sum = _mm256_add_epi32(acc, _mm256_madd_epi16(pairs, _mm256_set1_epi16(1)));
    __asm__("" : "+x"(sum));
    return sum;
  }
  // Q8_0's stored bytes (quants plus 128) as the signed quants; their
  // magnitudes (128 stays 128, unsigned); x negated where q is negative
  // (and zeroed where q is zero, whose products are zero anyway).
  static I signed_bytes(I stored) { return _mm256_xor_si256(stored, bytes(char(0x80))); }
  static I abs_bytes(I q) { return _mm256_abs_epi8(q); }
  static I with_signs_of(I x, I q) { return _mm256_sign_epi8(x, q); }
  static I low_nibbles(I q) { return _mm256_and_si256(q, bytes(0x0f)); }
  static I high_nibbles(I q) { return _mm256_and_si256(_mm256_srli_epi16(q, 4), bytes(0x0f)); }
  static I six_bits(I v) { return _mm256_and_si256(v, bytes(0x3f)); }
  static I top_two_bits(I v) { return _mm256_andnot_si256(bytes(0x3f), v); }
  static I either(I a, I b) { return _mm256_or_si256(a, b); }
  // One table of 16 bytes in each 128-bit lane.
  static I table(const int8_t (&values)[16]) {
    return _mm256_broadcastsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(values)));
  }
  static I lookup(I table, I nibbles) { return _mm256_shuffle_epi8(table, nibbles); }

  static F zero_floats() { return _mm256_setzero_ps(); }
  static F to_float(I v) { return _mm256_cvtepi32_ps(v); }
  static F mul(F a, F b) { return _mm256_mul_ps(a, b); }
  static F fmadd(F a, F b, F c) { return _mm256_fmadd_ps(a, b, c); }
  static F load_floats(const uint8_t* p) {
    return _mm256_loadu_ps(reinterpret_cast<const float*>(p));
  }
  static F f16s(const uint8_t* p) {
    return _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
  }
  static F u8s(const uint8_t* p) {
    return _mm256_cvtepi32_ps(
        _mm256_cvtepu8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(p))));
  }
  static F i8s(const uint8_t* p) {
    return _mm256_cvtepi32_ps(
        _mm256_cvtepi8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(p))));
  }
  // Half h's lanes are all sub-blocks of super-block h: its F16 at word h.
  static F superblock_f16s(const uint8_t* words, int h) {
    uint16_t word;
    __builtin_memcpy(&word, words + 2 * h, 2);
    return _mm256_cvtph_ps(_mm_set1_epi16(static_cast<short>(word)));
  }
  template <int R, int T>
  static void store_tile_sums(const F (&acc)[R][T], float* y, int64_t y_stride, int64_t r0,
                              int64_t t0) {
    for (int t = 0; t < T; ++t) {
      for (int r = 0; r < R; ++r) y[(t0 + t) * y_stride + r0 + r] = horizontal_sum(acc[r][t]);
    }
  }
};

// Interleaved weights through the kernel over Lanes, the original blocks
// through the block-at-a-time one, looked up in the families' lists once.
template <class Lanes, template <class> class Groups, ElementType kType>
void interleaved_or_blocks(const WeightMatrix& w, const PackedActivations& x, TileRange range,
                           float* y, int64_t y_stride) {
  if (w.interleaved != nullptr && x.interleaved_row(0) != nullptr) {
    return run_tile<Interleaved<Lanes, Groups<Lanes>>>(w, x, range, y, y_stride);
  }
  static const TileKernel blocks = avx2::tile_kernel(kType);
  blocks(w, x, range, y, y_stride);
}

// Every interleaved type's kernel over Lanes, by weight type.
template <class Lanes>
constexpr TileEntry kInterleavedTiles[] = {
    {ElementType::kQ4_0, interleaved_or_blocks<Lanes, Q4_0Groups, ElementType::kQ4_0>},
    {ElementType::kIQ4_NL, interleaved_or_blocks<Lanes, IQ4_NLGroups, ElementType::kIQ4_NL>},
    {ElementType::kIQ4_XS, interleaved_or_blocks<Lanes, IQ4XSGroups, ElementType::kIQ4_XS>},
    {ElementType::kMXFP4, interleaved_or_blocks<Lanes, MXFP4Groups, ElementType::kMXFP4>},
    {ElementType::kQ8_0, interleaved_or_blocks<Lanes, Q8_0Groups, ElementType::kQ8_0>},
    {ElementType::kQ4_K, interleaved_or_blocks<Lanes, Q4KGroups, ElementType::kQ4_K>},
    {ElementType::kQ6_K, interleaved_or_blocks<Lanes, Q6KGroups, ElementType::kQ6_K>},
};

}  // namespace
}  // namespace ingot::kernels
