// AVX2 kernel for IQ4_XS weights against Q8_K activations, shaped as the
// Q4_K kernel: one 32-element sub-block per step, a byte shuffle from the
// table, vpmaddubsw of |w| against x with w's sign into 16-bit pairs,
// vpmaddwd by the sub-block's scale (less 32) into 32-bit lanes, one float
// scaling per super-block.
#include <immintrin.h>

#include "kernels/block_formats.h"
#include "kernels/x86/matmul_kernels_avx2.h"
#include "kernels/x86/super_block_tile_avx2.h"

namespace ingot::kernels {
namespace {

inline __m256i iq4_table() {
  return _mm256_broadcastsi128_si256(
      _mm_setr_epi8(-127, -104, -83, -65, -49, -35, -22, -10, 1, 13, 25, 38, 53, 69, 89, 113));
}

// scale * (w . x) over 32 elements, as eight 32-bit partial sums.
inline __m256i scaled_signed_dot(__m256i w, __m256i x, __m256i scale) {
  return _mm256_madd_epi16(_mm256_maddubs_epi16(_mm256_sign_epi8(w, w), _mm256_sign_epi8(x, w)),
                           scale);
}

struct IQ4XSAvx2 : SuperBlockTileAvx2 {
  using Block = BlockIQ4_XS;

  template <int T>
  void accumulate(const Block& block, const XStep (&xs)[T], Acc (&acc)[T]) const {
    __m256i isum[T];
    for (int t = 0; t < T; ++t) isum[t] = _mm256_setzero_si256();
    for (int c = 0; c < 4; ++c) {
      // Sub-blocks 2c and 2c + 1: 16 bytes each, elements 0..15 in the
      // low nibbles and 16..31 in the high ones.
      const __m256i q = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(block.qs + 32 * c));
      const __m256i low = _mm256_and_si256(q, nibble_);
      const __m256i high = _mm256_and_si256(_mm256_srli_epi16(q, 4), nibble_);
      const __m256i first =
          _mm256_shuffle_epi8(iq4_table(), _mm256_permute2x128_si256(low, high, 0x20));
      const __m256i second =
          _mm256_shuffle_epi8(iq4_table(), _mm256_permute2x128_si256(low, high, 0x31));
      const __m256i scale_first =
          _mm256_set1_epi16(static_cast<int16_t>(iq4_xs_scale(block, 2 * c)));
      const __m256i scale_second =
          _mm256_set1_epi16(static_cast<int16_t>(iq4_xs_scale(block, 2 * c + 1)));
      for (int t = 0; t < T; ++t) {
        const int8_t* xq = xs[t]->qs + 64 * c;
        const __m256i x0 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(xq));
        const __m256i x1 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(xq + 32));
        isum[t] = _mm256_add_epi32(isum[t], scaled_signed_dot(first, x0, scale_first));
        isum[t] = _mm256_add_epi32(isum[t], scaled_signed_dot(second, x1, scale_second));
      }
    }
    const float d = f16_[block.d];
    for (int t = 0; t < T; ++t) {
      acc[t].sum =
          _mm256_fmadd_ps(_mm256_cvtepi32_ps(isum[t]), _mm256_set1_ps(d * xs[t]->d), acc[t].sum);
    }
  }

  const __m256i nibble_ = _mm256_set1_epi8(0x0f);
};

}  // namespace

TileList avx2::iq4_xs_tiles() {
  static constexpr TileEntry kTiles[] = {
      TileEntry{ElementType::kIQ4_XS, run_block_tile<IQ4XSAvx2>},
  };
  return kTiles;
}

}  // namespace ingot::kernels
