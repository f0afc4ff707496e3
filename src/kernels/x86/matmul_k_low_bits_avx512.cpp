// AVX-512 kernels for Q2_K and Q3_K weights against Q8_K activations.
// Both store 2-bit values with byte l of each 32-byte group holding
// element l of four consecutive 32-element runs; Q3_K adds a high bit from
// hmask and signed 6-bit scales, Q2_K has 4-bit scales and mins. The quants
// enter vpmaddubsw unsigned (Q3_K as q + 4, the 4 taken back out with the
// activation block sums) and vpdpwssd applies each 16-element sub-block's
// scale, as in matmul_k_quants_avx512.cpp.
// GCC 12 flags the deliberately undefined lanes inside its own AVX-512
// intrinsics as uninitialized.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#include <immintrin.h>

#include "kernels/block_formats.h"
#include "kernels/x86/k_low_bits_scales_avx2.h"
#include "kernels/x86/matmul_kernels_avx512.h"
#include "kernels/x86/super_block_tile_avx512.h"

namespace ingot::kernels {
namespace {

// Each of the 16-bit lanes k*8 .. k*8+7 gets word `first + k` of v.
inline __m512i spread_scales(__m512i v, int first) {
  const __m512i group =
      _mm512_srli_epi16(_mm512_set_epi16(31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17,
                                         16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0),
                        3);
  return _mm512_permutexvar_epi16(
      _mm512_add_epi16(group, _mm512_set1_epi16(static_cast<short>(first))), v);
}

// The 2-bit values of runs 2p and 2p+1 of half h: 64 bytes in element order.
inline __m512i two_bit_runs(const uint8_t* qs, int h, int p) {
  const __m256i q = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(qs + 32 * h));
  const __m512i both = _mm512_inserti64x4(_mm512_castsi256_si512(q), q, 1);
  const __m512i shifts = _mm512_inserti64x4(_mm512_set1_epi16(static_cast<short>(4 * p)),
                                            _mm256_set1_epi16(static_cast<short>(4 * p + 2)), 1);
  return _mm512_and_si512(_mm512_srlv_epi16(both, shifts), _mm512_set1_epi8(3));
}

struct Q2KWeights {
  using Block = BlockQ2_K;
  static constexpr bool kHasMins = true;
  static constexpr int kOffset = 0;
  static __m256i scales(const Block& b) { return q2_k_scale_words(b); }
  static __m256i mins(const Block& b) { return q2_k_min_words(b); }
  static __m512i runs(const Block& b, int h, int p) { return two_bit_runs(b.qs, h, p); }
};

struct Q3KWeights {
  using Block = BlockQ3_K;
  static constexpr bool kHasMins = false;
  static constexpr int kOffset = 4;
  static __m256i scales(const Block& b) { return q3_k_scale_words(b); }
  static __m256i mins(const Block&) { return _mm256_setzero_si256(); }
  // q + 4 in 0..7: the high bit (bit 4h+j of hmask[l] for run j) adds 4.
  static __m512i runs(const Block& b, int h, int p) {
    const __m256i hm = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(b.hmask));
    const __m512i both = _mm512_inserti64x4(_mm512_castsi256_si512(hm), hm, 1);
    const __m512i shifts =
        _mm512_inserti64x4(_mm512_set1_epi16(static_cast<short>(4 * h + 2 * p)),
                           _mm256_set1_epi16(static_cast<short>(4 * h + 2 * p + 1)), 1);
    const __m512i high = _mm512_and_si512(_mm512_srlv_epi16(both, shifts), _mm512_set1_epi8(1));
    return _mm512_or_si512(two_bit_runs(b.qs, h, p), _mm512_slli_epi16(high, 2));
  }
};

template <class W>
struct LowBitKernel : SuperBlockTileAvx512<4> {
  using Block = typename W::Block;

  template <int T>
  void accumulate(const Block& blk, const XStep (&xs)[T], Acc (&acc)[T]) const {
    const __m256i scales = W::scales(blk);
    const __m512i scales_wide = _mm512_castsi256_si512(scales);
    __m512i isum[T];
    __m256i min_sum[T];
    for (int t = 0; t < T; ++t) {
      const __m256i bsums = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(xs[t]->bsums));
      // Q3_K's +4 on every quant: subtract 4 * sum of scale * bsum.
      isum[t] = _mm512_zextsi256_si512(
          _mm256_mullo_epi32(_mm256_madd_epi16(scales, bsums), _mm256_set1_epi32(-W::kOffset)));
      if constexpr (W::kHasMins) min_sum[t] = _mm256_madd_epi16(W::mins(blk), bsums);
    }
    for (int h = 0; h < 2; ++h) {
      for (int p = 0; p < 2; ++p) {
        const __m512i wq = W::runs(blk, h, p);
        const __m512i sc = spread_scales(scales_wide, 8 * h + 4 * p);
        for (int t = 0; t < T; ++t) {
          const __m512i xq = _mm512_loadu_si512(xs[t]->qs + 128 * h + 64 * p);
          isum[t] = _mm512_dpwssd_epi32(isum[t], _mm512_maddubs_epi16(wq, xq), sc);
        }
      }
    }
    const float d = f16_[blk.d];
    for (int t = 0; t < T; ++t) {
      const float dx = xs[t]->d;
      acc[t].sum = _mm512_fmadd_ps(_mm512_cvtepi32_ps(isum[t]), _mm512_set1_ps(d * dx), acc[t].sum);
      if constexpr (W::kHasMins) {
        const __m512 mins = _mm512_cvtepi32_ps(_mm512_zextsi256_si512(min_sum[t]));
        acc[t].sum = _mm512_fmadd_ps(mins, _mm512_set1_ps(-f16_[blk.dmin] * dx), acc[t].sum);
      }
    }
  }
};

}  // namespace

TileList avx512::k_low_bit_tiles() {
  static constexpr TileEntry kTiles[] = {
      TileEntry{ElementType::kQ2_K, run_block_tile<LowBitKernel<Q2KWeights>>},
      TileEntry{ElementType::kQ3_K, run_block_tile<LowBitKernel<Q3KWeights>>},
  };
  return kTiles;
}

}  // namespace ingot::kernels
