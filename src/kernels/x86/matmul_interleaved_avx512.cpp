// The interleaved kernels (matmul_interleaved_shape.h) on AVX-512 VNNI: a
// vector holds a group's 16 lanes, one vpdpbusd per dot step.
//
// GCC 12 flags the deliberately undefined lanes inside its own AVX-512
// intrinsics (reduce_add) as uninitialized.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#include <immintrin.h>

#include "kernels/shapes/matmul_interleaved_shape.h"
#include "kernels/x86/matmul_kernels_avx512.h"
#include "kernels/x86/tile_sums_avx512.h"

namespace ingot::kernels {
namespace {

struct Avx512Vnni {
  using I = __m512i;
  using F = __m512;
  static constexpr int kLanes = 16;
  static constexpr int kHalves = 1;
  static constexpr int kRows = 4;
  static constexpr int kTokens = 3;
  static constexpr int kDecodeRows = 8;
  static constexpr int kSmallBatchRows = kInterleavedSmallBatchRows;
  static constexpr int kSplitDotsUpTo = 8;

  static I load(const uint8_t* p) { return _mm512_loadu_si512(p); }
  static I zero() { return _mm512_setzero_si512(); }
  static I bytes(char b) { return _mm512_set1_epi8(b); }
  static I add(I a, I b) { return _mm512_add_epi32(a, b); }
  static I sub(I a, I b) { return _mm512_sub_epi32(a, b); }
  template <int kBits>
  static I shift_left(I v) {
    return _mm512_slli_epi32(v, kBits);
  }
  template <int kBits>
  static I shift_words_right(I v) {
    return _mm512_srli_epi16(v, kBits);
  }
  static I dot(I acc, I u, I s) { return _mm512_dpbusd_epi32(acc, u, s); }
  static constexpr bool kPairSums = false;
  static I low_nibbles(I q) { return _mm512_and_si512(q, bytes(0x0f)); }
  static I high_nibbles(I q) { return _mm512_and_si512(_mm512_srli_epi16(q, 4), bytes(0x0f)); }
  static I six_bits(I v) { return _mm512_and_si512(v, bytes(0x3f)); }
  static I top_two_bits(I v) { return _mm512_andnot_si512(bytes(0x3f), v); }
  static I either(I a, I b) { return _mm512_or_si512(a, b); }
  // One table of 16 bytes in each 128-bit lane.
  static I table(const int8_t (&values)[16]) {
    return _mm512_broadcast_i32x4(_mm_loadu_si128(reinterpret_cast<const __m128i*>(values)));
  }
  static I lookup(I table, I nibbles) { return _mm512_shuffle_epi8(table, nibbles); }

  static F zero_floats() { return _mm512_setzero_ps(); }
  static F to_float(I v) { return _mm512_cvtepi32_ps(v); }
  static F mul(F a, F b) { return _mm512_mul_ps(a, b); }
  static F fmadd(F a, F b, F c) { return _mm512_fmadd_ps(a, b, c); }
  static F load_floats(const uint8_t* p) {
    return _mm512_loadu_ps(reinterpret_cast<const float*>(p));
  }
  static F f16s(const uint8_t* p) {
    return _mm512_cvtph_ps(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)));
  }
  static F u8s(const uint8_t* p) {
    return _mm512_cvtepi32_ps(
        _mm512_cvtepu8_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p))));
  }
  static F i8s(const uint8_t* p) {
    return _mm512_cvtepi32_ps(
        _mm512_cvtepi8_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p))));
  }
  // Lanes 0-7 (the first super-block's sub-blocks) take the F16 at word 0,
  // lanes 8-15 the one at word 1.
  static F superblock_f16s(const uint8_t* words, int) {
    uint32_t pair;
    __builtin_memcpy(&pair, words, 4);
    const __m256i index = _mm256_set_epi16(1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0);
    const __m256i d_words = _mm256_castsi128_si256(_mm_cvtsi32_si128(static_cast<int>(pair)));
    return _mm512_cvtph_ps(_mm256_permutexvar_epi16(index, d_words));
  }
  template <int R, int T>
  static void store_tile_sums(const F (&acc)[R][T], float* y, int64_t y_stride, int64_t r0,
                              int64_t t0) {
    avx512::store_tile_sums<R, T>(acc, y, y_stride, r0, t0);
  }
};

}  // namespace

void avx512::q4_0_interleaved_tile(const WeightMatrix& w, const PackedActivations& x,
                                   TileRange range, float* y, int64_t y_stride) {
  run_tile<Interleaved<Avx512Vnni, Q4_0Groups<Avx512Vnni>>>(w, x, range, y, y_stride);
}

void avx512::iq4_nl_interleaved_tile(const WeightMatrix& w, const PackedActivations& x,
                                     TileRange range, float* y, int64_t y_stride) {
  run_tile<Interleaved<Avx512Vnni, IQ4_NLGroups<Avx512Vnni>>>(w, x, range, y, y_stride);
}

void avx512::mxfp4_interleaved_tile(const WeightMatrix& w, const PackedActivations& x,
                                    TileRange range, float* y, int64_t y_stride) {
  run_tile<Interleaved<Avx512Vnni, MXFP4Groups<Avx512Vnni>>>(w, x, range, y, y_stride);
}

void avx512::iq4_xs_interleaved_tile(const WeightMatrix& w, const PackedActivations& x,
                                     TileRange range, float* y, int64_t y_stride) {
  run_tile<Interleaved<Avx512Vnni, IQ4XSGroups<Avx512Vnni>>>(w, x, range, y, y_stride);
}

void avx512::q8_0_interleaved_tile(const WeightMatrix& w, const PackedActivations& x,
                                   TileRange range, float* y, int64_t y_stride) {
  run_tile<Interleaved<Avx512Vnni, Q8_0Groups<Avx512Vnni>>>(w, x, range, y, y_stride);
}

void avx512::q4_k_interleaved_tile(const WeightMatrix& w, const PackedActivations& x,
                                   TileRange range, float* y, int64_t y_stride) {
  run_tile<Interleaved<Avx512Vnni, Q4KGroups<Avx512Vnni>>>(w, x, range, y, y_stride);
}

void avx512::q6_k_interleaved_tile(const WeightMatrix& w, const PackedActivations& x,
                                   TileRange range, float* y, int64_t y_stride) {
  run_tile<Interleaved<Avx512Vnni, Q6KGroups<Avx512Vnni>>>(w, x, range, y, y_stride);
}

}  // namespace ingot::kernels
