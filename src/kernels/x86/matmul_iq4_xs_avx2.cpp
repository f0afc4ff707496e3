// AVX2 kernel for IQ4_XS weights against Q8_K activations, shaped as the
// Q4_K kernel: one 32-element sub-block per step, a byte shuffle from the
// table, vpmaddubsw of |w| against x with w's sign into 16-bit pairs,
// vpmaddwd by the sub-block's scale (less 32) into 32-bit lanes, one float
// scaling per super-block.
#include <immintrin.h>

#include "kernels/block_formats.h"
#include "kernels/f16_table.h"
#include "kernels/shapes/prefetch.h"
#include "kernels/shapes/tile_loop.h"
#include "kernels/x86/horizontal_reduce_avx2.h"
#include "kernels/x86/matmul_kernels_avx2.h"

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

struct IQ4XSAvx2 {
  static constexpr int kRows = 4;
  static constexpr int kTokens = 2;
  static constexpr int kDecodeRows = 4;

  template <int R, int T>
  static void run(const WeightMatrix& w, const PackedActivations& x, int64_t r0, int64_t t0,
                  float* y, int64_t y_stride) {
    const float* f16 = f16_table();
    const BlockIQ4_XS* rows[R];
    for (int r = 0; r < R; ++r) {
      rows[r] = reinterpret_cast<const BlockIQ4_XS*>(static_cast<const uint8_t*>(w.data) +
                                                     (r0 + r) * w.row_stride);
    }
    const BlockQ8_K* xs[T];
    for (int t = 0; t < T; ++t) xs[t] = reinterpret_cast<const BlockQ8_K*>(x.row(t0 + t));
    __m256 acc[R][T];
    for (int r = 0; r < R; ++r) {
      for (int t = 0; t < T; ++t) acc[r][t] = _mm256_setzero_ps();
    }
    const TilePrefetch prefetch(rows[0], R, w.row_stride, w.cols / kQK_K, t0, T, x.n_tokens());
    const __m256i nibble = _mm256_set1_epi8(0x0f);
    for (int64_t b = 0; b < w.cols / kQK_K; ++b) {
      prefetch.step(b);
      for (int r = 0; r < R; ++r) {
        const BlockIQ4_XS& block = rows[r][b];
        __m256i isum[T];
        for (int t = 0; t < T; ++t) isum[t] = _mm256_setzero_si256();
        for (int c = 0; c < 4; ++c) {
          // Sub-blocks 2c and 2c + 1: 16 bytes each, elements 0..15 in the
          // low nibbles and 16..31 in the high ones.
          const __m256i q = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(block.qs + 32 * c));
          const __m256i low = _mm256_and_si256(q, nibble);
          const __m256i high = _mm256_and_si256(_mm256_srli_epi16(q, 4), nibble);
          const __m256i first =
              _mm256_shuffle_epi8(iq4_table(), _mm256_permute2x128_si256(low, high, 0x20));
          const __m256i second =
              _mm256_shuffle_epi8(iq4_table(), _mm256_permute2x128_si256(low, high, 0x31));
          const __m256i scale_first =
              _mm256_set1_epi16(static_cast<int16_t>(iq4_xs_scale(block, 2 * c)));
          const __m256i scale_second =
              _mm256_set1_epi16(static_cast<int16_t>(iq4_xs_scale(block, 2 * c + 1)));
          for (int t = 0; t < T; ++t) {
            const int8_t* xq = xs[t][b].qs + 64 * c;
            const __m256i x0 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(xq));
            const __m256i x1 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(xq + 32));
            isum[t] = _mm256_add_epi32(isum[t], scaled_signed_dot(first, x0, scale_first));
            isum[t] = _mm256_add_epi32(isum[t], scaled_signed_dot(second, x1, scale_second));
          }
        }
        const float d = f16[block.d];
        for (int t = 0; t < T; ++t) {
          acc[r][t] = _mm256_fmadd_ps(_mm256_cvtepi32_ps(isum[t]), _mm256_set1_ps(d * xs[t][b].d),
                                      acc[r][t]);
        }
      }
    }
    for (int t = 0; t < T; ++t) {
      for (int r = 0; r < R; ++r) y[(t0 + t) * y_stride + r0 + r] = horizontal_sum(acc[r][t]);
    }
  }
};

}  // namespace

void avx2::iq4_xs_tile(const WeightMatrix& w, const PackedActivations& x, TileRange range, float* y,
                       int64_t y_stride) {
  run_tile<IQ4XSAvx2>(w, x, range, y, y_stride);
}

}  // namespace ingot::kernels
