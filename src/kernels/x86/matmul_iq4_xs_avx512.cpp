// AVX-512 kernel for IQ4_XS weights against Q8_K activations, shaped as
// the Q4_K kernel: per super-block, each pair of 32-element sub-blocks is
// one 64-byte vector; a byte shuffle turns its nibbles into the table's
// signed values; vpmaddubsw takes |w| against x with w's sign into 16-bit
// pairs (at most 2 * 127 * 127: no saturation), and vpdpwssd multiplies
// each pair by its sub-block's 6-bit scale (less 32) while summing into
// 32-bit lanes. The super-block's integer sum is scaled once by d_w * d_x.
// GCC 12 flags the deliberately undefined lanes inside its own AVX-512
// intrinsics as uninitialized.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#include <immintrin.h>

#include "kernels/block_formats.h"
#include "kernels/x86/matmul_kernels_avx512.h"
#include "kernels/x86/super_block_tile_avx512.h"

namespace ingot::kernels {
namespace {

// kIq4NlValues in every 128-bit lane (a constant the compiler folds).
inline __m512i iq4_table() {
  return _mm512_broadcast_i32x4(
      _mm_setr_epi8(-127, -104, -83, -65, -49, -35, -22, -10, 1, 13, 25, 38, 53, 69, 89, 113));
}

// Sub-blocks 2c and 2c + 1 of a block as the table's values, in element
// order: each sub-block's 16 bytes hold its elements 0..15 in the low
// nibbles and 16..31 in the high ones.
inline __m512i chunk(const BlockIQ4_XS& block, int c) {
  const __m256i q = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(block.qs + 32 * c));
  const __m256i nibble = _mm256_set1_epi8(0x0f);
  const __m256i low = _mm256_and_si256(q, nibble);
  const __m256i high = _mm256_and_si256(_mm256_srli_epi16(q, 4), nibble);
  const __m512i index =
      _mm512_inserti64x4(_mm512_castsi256_si512(_mm256_permute2x128_si256(low, high, 0x20)),
                         _mm256_permute2x128_si256(low, high, 0x31), 1);
  return _mm512_shuffle_epi8(iq4_table(), index);
}

// The 16-bit lane i of chunk c takes sub-block 2c + i / 16's scale.
inline __m512i chunk_scale_index(int c) {
  const __m512i lane = _mm512_set_epi16(31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17,
                                        16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
  return _mm512_add_epi16(_mm512_srli_epi16(lane, 4), _mm512_set1_epi16(static_cast<short>(2 * c)));
}

struct IQ4XSKernel : SuperBlockTileAvx512<8> {
  using Block = BlockIQ4_XS;

  template <int T>
  void accumulate(const Block& block, const XStep (&xs)[T], Acc (&acc)[T]) const {
    alignas(16) int16_t scales[8];
    for (int j = 0; j < 8; ++j) scales[j] = static_cast<int16_t>(iq4_xs_scale(block, j));
    const __m512i scale_words =
        _mm512_zextsi128_si512(_mm_load_si128(reinterpret_cast<const __m128i*>(scales)));
    __m512i isum[T];
    for (int t = 0; t < T; ++t) isum[t] = _mm512_setzero_si512();
    for (int c = 0; c < 4; ++c) {
      const __m512i wq = chunk(block, c);
      const __m512i magnitude = _mm512_abs_epi8(wq);
      const __mmask64 negative = _mm512_movepi8_mask(wq);
      const __m512i sc = _mm512_permutexvar_epi16(scale_index_[c], scale_words);
      for (int t = 0; t < T; ++t) {
        const __m512i xq = _mm512_loadu_si512(xs[t]->qs + 64 * c);
        const __m512i signed_x = _mm512_mask_sub_epi8(xq, negative, _mm512_setzero_si512(), xq);
        isum[t] = _mm512_dpwssd_epi32(isum[t], _mm512_maddubs_epi16(magnitude, signed_x), sc);
      }
    }
    const float d = f16_[block.d];
    for (int t = 0; t < T; ++t) {
      acc[t].sum =
          _mm512_fmadd_ps(_mm512_cvtepi32_ps(isum[t]), _mm512_set1_ps(d * xs[t]->d), acc[t].sum);
    }
  }

  const __m512i scale_index_[4] = {chunk_scale_index(0), chunk_scale_index(1), chunk_scale_index(2),
                                   chunk_scale_index(3)};
};

}  // namespace

TileList avx512::iq4_xs_tiles() {
  static constexpr TileEntry kTiles[] = {
      TileEntry{ElementType::kIQ4_XS, avx512::interleaved_or_blocks<avx512::iq4_xs_interleaved_tile,
                                                                    run_block_tile<IQ4XSKernel>>},
  };
  return kTiles;
}

}  // namespace ingot::kernels
