// AVX-512 kernels for Q4_K and Q6_K weights against Q8_K activations.
// Quants are widened to unsigned bytes, multiplied with the activation
// bytes by vpmaddubsw into 16-bit pairs (no overflow: 2 * 63 * 127 fits),
// and vpdpwssd multiplies those pairs by each sub-block's scale while
// summing into 32-bit lanes. The integer sum of a super-block is scaled
// once by d_w * d_x; Q4_K's min term and Q6_K's -32 offset come from the
// activation block sums (bsums), as in the scalar reference.
// GCC 12 flags the deliberately undefined lanes inside its own AVX-512
// intrinsics as uninitialized.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#include <immintrin.h>

#include <cstring>

#include "kernels/block_formats.h"
#include "kernels/x86/matmul_kernels_avx512.h"
#include "kernels/x86/super_block_tile_avx512.h"

namespace ingot::kernels {
namespace {

uint32_t load_u32(const uint8_t* p) {
  uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}

// The vpermw index giving 16-bit lane i word first + i / per_group (a
// power of two): made once per call, outside the block loops.
inline __m512i spread_index(int first, int per_group) {
  const __m512i lane = _mm512_set_epi16(31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17,
                                        16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
  const int shift = per_group == 16 ? 4 : 3;
  return _mm512_add_epi16(_mm512_srli_epi16(lane, shift),
                          _mm512_set1_epi16(static_cast<short>(first)));
}

// The 64 quants of sub-blocks 2c and 2c+1 of a Q4_K block, as bytes.
struct Q4KWeights {
  using Block = BlockQ4_K;
  static __m512i chunk(const Block& blk, int c) {
    const __m256i q = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(blk.qs + 32 * c));
    const __m256i nibble = _mm256_set1_epi8(0x0f);
    return _mm512_inserti64x4(_mm512_castsi256_si512(_mm256_and_si256(q, nibble)),
                              _mm256_and_si256(_mm256_srli_epi16(q, 4), nibble), 1);
  }
};

// Q5_K: Q4_K's nibbles plus bit s of qh[l] as the fifth bit of sub-block s.
struct Q5KWeights {
  using Block = BlockQ5_K;
  static __m512i chunk(const Block& blk, int c) {
    const __m256i q = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(blk.qs + 32 * c));
    const __m256i nibble = _mm256_set1_epi8(0x0f);
    const __m512i low = _mm512_inserti64x4(_mm512_castsi256_si512(_mm256_and_si256(q, nibble)),
                                           _mm256_and_si256(_mm256_srli_epi16(q, 4), nibble), 1);
    const __m256i qh = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(blk.qh));
    const __m512i both = _mm512_inserti64x4(_mm512_castsi256_si512(qh), qh, 1);
    // Word shifts are safe: only bit 0 of each byte survives the mask.
    const __m512i shifts = _mm512_inserti64x4(_mm512_set1_epi16(static_cast<short>(2 * c)),
                                              _mm256_set1_epi16(static_cast<short>(2 * c + 1)), 1);
    const __m512i bit = _mm512_and_si512(_mm512_srlv_epi16(both, shifts), _mm512_set1_epi8(1));
    return _mm512_or_si512(low, _mm512_slli_epi16(bit, 4));
  }
};

template <class W>
struct Q4KKernel : SuperBlockTileAvx512<8> {
  using Block = typename W::Block;
  // The activation block, with its 8 sub-block (32-element) sums from
  // bsums: the mins' term of every row takes them.
  struct XStep {
    const BlockQ8_K* block;
    __m128i sums;
  };

  XStep activations(const PackedActivations& x, int64_t token, int64_t b) const {
    const BlockQ8_K* block = activation_block<BlockQ8_K>(x, token, b);
    const __m128i lo = _mm_loadu_si128(reinterpret_cast<const __m128i*>(block->bsums));
    const __m128i hi = _mm_loadu_si128(reinterpret_cast<const __m128i*>(block->bsums + 8));
    return {block, _mm_hadd_epi16(lo, hi)};
  }

  template <int T>
  void accumulate(const Block& blk, const XStep (&xs)[T], Acc (&acc)[T]) const {
    const uint32_t a = load_u32(blk.scales), m = load_u32(blk.scales + 4),
                   c = load_u32(blk.scales + 8);
    const uint64_t scales =
        (a & 0x3f3f3f3fu) | static_cast<uint64_t>((c & 0x0f0f0f0fu) | ((a >> 2) & 0x30303030u))
                                << 32;
    const uint64_t mins = (m & 0x3f3f3f3fu) |
                          static_cast<uint64_t>(((c >> 4) & 0x0f0f0f0fu) | ((m >> 2) & 0x30303030u))
                              << 32;
    const __m512i scale_words =
        _mm512_zextsi128_si512(_mm_cvtepu8_epi16(_mm_cvtsi64_si128(static_cast<int64_t>(scales))));
    const __m128i min_words = _mm_cvtepu8_epi16(_mm_cvtsi64_si128(static_cast<int64_t>(mins)));
    __m512i isum[T];
    for (int t = 0; t < T; ++t) isum[t] = _mm512_setzero_si512();
    for (int chunk = 0; chunk < 4; ++chunk) {
      const __m512i wq = W::chunk(blk, chunk);
      const __m512i sc = _mm512_permutexvar_epi16(chunk_index_[chunk], scale_words);
      for (int t = 0; t < T; ++t) {
        const __m512i xq = _mm512_loadu_si512(xs[t].block->qs + 64 * chunk);
        isum[t] = _mm512_dpwssd_epi32(isum[t], _mm512_maddubs_epi16(wq, xq), sc);
      }
    }
    const float d = f16_[blk.d], dmin = f16_[blk.dmin];
    for (int t = 0; t < T; ++t) {
      const float dx = xs[t].block->d;
      const __m512i min_sum = _mm512_zextsi128_si512(_mm_madd_epi16(min_words, xs[t].sums));
      acc[t].sum = _mm512_fmadd_ps(_mm512_cvtepi32_ps(isum[t]), _mm512_set1_ps(d * dx), acc[t].sum);
      acc[t].sum =
          _mm512_fmadd_ps(_mm512_cvtepi32_ps(min_sum), _mm512_set1_ps(-dmin * dx), acc[t].sum);
    }
  }

  // Sub-block scales 2c and 2c+1, each over 16 lanes of 16-bit pairs.
  const __m512i chunk_index_[4] = {spread_index(0, 16), spread_index(2, 16), spread_index(4, 16),
                                   spread_index(6, 16)};
};

struct Q6KKernel : SuperBlockTileAvx512<8> {
  using Block = BlockQ6_K;

  template <int T>
  void accumulate(const Block& blk, const XStep (&xs)[T], Acc (&acc)[T]) const {
    const __m256i scale_words =
        _mm256_cvtepi8_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(blk.scales)));
    const __m512i scale_wide = _mm512_castsi256_si512(scale_words);
    __m512i isum[T];
    for (int t = 0; t < T; ++t) {
      // The -32 offset: -32 * sum over sub-blocks of scale * bsum.
      const __m256i bsums = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(xs[t]->bsums));
      isum[t] = _mm512_zextsi256_si512(_mm256_slli_epi32(_mm256_madd_epi16(scale_words, bsums), 5));
      isum[t] = _mm512_sub_epi32(_mm512_setzero_si512(), isum[t]);
    }
    for (int half = 0; half < 2; ++half) {
      const __m512i ql = _mm512_loadu_si512(blk.ql + 64 * half);
      const __m256i qh256 =
          _mm256_loadu_si256(reinterpret_cast<const __m256i*>(blk.qh + 32 * half));
      const __m512i qh = _mm512_inserti64x4(_mm512_castsi256_si512(qh256), qh256, 1);
      const __m512i w01 =
          _mm512_or_si512(_mm512_and_si512(ql, low_nibble_),
                          _mm512_and_si512(_mm512_sllv_epi16(qh, shift_left_), high_pair_));
      const __m512i w23 =
          _mm512_or_si512(_mm512_and_si512(_mm512_srli_epi16(ql, 4), low_nibble_),
                          _mm512_and_si512(_mm512_srlv_epi16(qh, shift_right_), high_pair_));
      const __m512i sc01 = _mm512_permutexvar_epi16(run_index_[2 * half], scale_wide);
      const __m512i sc23 = _mm512_permutexvar_epi16(run_index_[2 * half + 1], scale_wide);
      for (int t = 0; t < T; ++t) {
        const int8_t* xq = xs[t]->qs + 128 * half;
        isum[t] =
            _mm512_dpwssd_epi32(isum[t], _mm512_maddubs_epi16(w01, _mm512_loadu_si512(xq)), sc01);
        isum[t] = _mm512_dpwssd_epi32(isum[t],
                                      _mm512_maddubs_epi16(w23, _mm512_loadu_si512(xq + 64)), sc23);
      }
    }
    const float d = f16_[blk.d];
    for (int t = 0; t < T; ++t) {
      acc[t].sum =
          _mm512_fmadd_ps(_mm512_cvtepi32_ps(isum[t]), _mm512_set1_ps(d * xs[t]->d), acc[t].sum);
    }
  }

  const __m512i low_nibble_ = _mm512_set1_epi8(0x0f);
  const __m512i high_pair_ = _mm512_set1_epi8(0x30);
  // Runs 0/1 take qh bit pairs 0/1 (<< 4, << 2); runs 2/3 pairs 2/3 (>> 0, >> 2).
  const __m512i shift_left_ = _mm512_inserti64x4(_mm512_set1_epi16(4), _mm256_set1_epi16(2), 1);
  const __m512i shift_right_ = _mm512_inserti64x4(_mm512_set1_epi16(0), _mm256_set1_epi16(2), 1);
  // Sub-block scales 4k..4k+3, each over 8 lanes of 16-bit pairs.
  const __m512i run_index_[4] = {spread_index(0, 8), spread_index(4, 8), spread_index(8, 8),
                                 spread_index(12, 8)};
};

}  // namespace

TileList avx512::k_quant_tiles() {
  static constexpr TileEntry kTiles[] = {
      TileEntry{ElementType::kQ4_K,
                avx512::interleaved_or_blocks<avx512::q4_k_interleaved_tile,
                                              run_block_tile<Q4KKernel<Q4KWeights>>>},
      TileEntry{ElementType::kQ5_K, run_block_tile<Q4KKernel<Q5KWeights>>},
      TileEntry{
          ElementType::kQ6_K,
          avx512::interleaved_or_blocks<avx512::q6_k_interleaved_tile, run_block_tile<Q6KKernel>>},
  };
  return kTiles;
}

}  // namespace ingot::kernels
