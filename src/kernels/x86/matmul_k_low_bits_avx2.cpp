// AVX2 kernels for Q2_K and Q3_K weights against Q8_K activations, one
// 32-element run (two 16-element sub-blocks) per step: vpmaddubsw into
// 16-bit pairs, vpmaddwd by the sub-block scales (shuffled out of one
// vector of the block's 16 scales). Q3_K enters as q + 4 and
// Q2_K's mins come back through the activation bsums, as in the AVX-512
// version (matmul_k_low_bits_avx512.cpp).
#include <immintrin.h>

#include "kernels/block_formats.h"
#include "kernels/x86/k_low_bits_scales_avx2.h"
#include "kernels/x86/matmul_kernels_avx2.h"
#include "kernels/x86/super_block_tile_avx2.h"

namespace ingot::kernels {
namespace {

inline __m256i load32(const void* p) {
  return _mm256_loadu_si256(static_cast<const __m256i*>(p));
}

// Run j (0..3) of half h: bits 2j..2j+1 of qs[32h + l].
inline __m256i two_bit_run(const uint8_t* qs, int h, int j) {
  return _mm256_and_si256(_mm256_srli_epi16(load32(qs + 32 * h), 2 * j), _mm256_set1_epi8(3));
}

struct Q2KWeights {
  using Block = BlockQ2_K;
  static constexpr bool kHasMins = true;
  static constexpr int kOffset = 0;
  static __m256i scales(const Block& b) { return q2_k_scale_words(b); }
  static __m256i mins(const Block& b) { return q2_k_min_words(b); }
  static __m256i run(const Block& b, int h, int j) { return two_bit_run(b.qs, h, j); }
};

struct Q3KWeights {
  using Block = BlockQ3_K;
  static constexpr bool kHasMins = false;
  static constexpr int kOffset = 4;
  static __m256i scales(const Block& b) { return q3_k_scale_words(b); }
  static __m256i mins(const Block&) { return _mm256_setzero_si256(); }
  // q + 4 in 0..7: the high bit is bit 4h + j of hmask[l].
  static __m256i run(const Block& b, int h, int j) {
    const __m256i high =
        _mm256_and_si256(_mm256_srli_epi16(load32(b.hmask), 4 * h + j), _mm256_set1_epi8(1));
    return _mm256_or_si256(two_bit_run(b.qs, h, j), _mm256_slli_epi16(high, 2));
  }
};

// The scales of run j of a half, sub-blocks 2j and 2j + 1 of its eight
// (`half_scales` holds the half's eight words in both 128-bit lanes): the
// first in every word of the low lane, the second in every word of the high.
inline __m256i run_scales(__m256i half_scales, int j) {
  const char lo = static_cast<char>(4 * j), hi = static_cast<char>(4 * j + 2);
  const __m256i pick =
      _mm256_setr_epi8(lo, lo + 1, lo, lo + 1, lo, lo + 1, lo, lo + 1, lo, lo + 1, lo, lo + 1, lo,
                       lo + 1, lo, lo + 1, hi, hi + 1, hi, hi + 1, hi, hi + 1, hi, hi + 1, hi,
                       hi + 1, hi, hi + 1, hi, hi + 1, hi, hi + 1);
  return _mm256_shuffle_epi8(half_scales, pick);
}

template <class W>
struct LowBitAvx2 : SuperBlockTileAvx2 {
  using Block = typename W::Block;

  template <int T>
  void accumulate(const Block& blk, const XStep (&xs)[T], Acc (&acc)[T]) const {
    const __m256i scale_words = W::scales(blk);
    __m256i isum[T], min_sum[T];
    for (int t = 0; t < T; ++t) {
      const __m256i bsums = load32(xs[t]->bsums);
      isum[t] =
          _mm256_mullo_epi32(_mm256_madd_epi16(scale_words, bsums), _mm256_set1_epi32(-W::kOffset));
      if constexpr (W::kHasMins) min_sum[t] = _mm256_madd_epi16(W::mins(blk), bsums);
    }
    // Unrolled whole: as loops, the shifts took their counts from
    // registers and the sums lived on the stack.
#pragma GCC unroll 2
    for (int h = 0; h < 2; ++h) {
      // Each branch's immediate is a constant even where the loop is
      // not unrolled (unoptimized builds).
      const __m256i half_scales = h == 0 ? _mm256_permute4x64_epi64(scale_words, 0x44)
                                         : _mm256_permute4x64_epi64(scale_words, 0xee);
#pragma GCC unroll 4
      for (int j = 0; j < 4; ++j) {
        const __m256i scales = run_scales(half_scales, j);
        const __m256i wq = W::run(blk, h, j);
        for (int t = 0; t < T; ++t) {
          const __m256i xq = load32(xs[t]->qs + 128 * h + 32 * j);
          isum[t] =
              _mm256_add_epi32(isum[t], _mm256_madd_epi16(_mm256_maddubs_epi16(wq, xq), scales));
        }
      }
    }
    const float d = f16_[blk.d];
    for (int t = 0; t < T; ++t) {
      const float dx = xs[t]->d;
      acc[t].sum = _mm256_fmadd_ps(_mm256_cvtepi32_ps(isum[t]), _mm256_set1_ps(d * dx), acc[t].sum);
      if constexpr (W::kHasMins) {
        acc[t].sum = _mm256_fmadd_ps(_mm256_cvtepi32_ps(min_sum[t]),
                                     _mm256_set1_ps(-f16_[blk.dmin] * dx), acc[t].sum);
      }
    }
  }
};

}  // namespace

TileList avx2::k_low_bit_tiles() {
  static constexpr TileEntry kTiles[] = {
      TileEntry{ElementType::kQ2_K, run_block_tile<LowBitAvx2<Q2KWeights>>},
      TileEntry{ElementType::kQ3_K, run_block_tile<LowBitAvx2<Q3KWeights>>},
  };
  return kTiles;
}

}  // namespace ingot::kernels
