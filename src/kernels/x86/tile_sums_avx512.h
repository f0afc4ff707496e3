#pragma once
// The epilogue of the AVX-512 matmul micro-tiles. Each of a micro-tile's
// R x T accumulators holds 16 partial sums of one output; summing each on
// its own costs about 8 shuffles and adds per accumulator, where folding
// all of them together in one transpose-and-add tree costs about 3. With
// short rows (qwen2.5's 896 columns are two groups of 16 blocks) the
// epilogue is a fifth of a micro-tile's work.
//
// Include only from *_avx512.cpp.

#include <immintrin.h>

#include <cstdint>

namespace ingot::kernels::avx512 {

// Lane i of the result is the sum of the 16 lanes of v[i], for i < N;
// lanes from N on are 0.
template <int N>
inline __m512 sum_each(const __m512* v) {
  static_assert(N >= 1 && N <= 16);
  auto at = [&](int i) { return i < N ? v[i] : _mm512_setzero_ps(); };
  // Halve each vector's width, two vectors at a time: w[i]'s 128-bit
  // chunks hold 4 partial sums of v[2i] (chunks 0, 1) and v[2i+1] (2, 3).
  __m512 w[8];
  for (int i = 0; i < 8; ++i) {
    const __m512 a = at(2 * i), b = at(2 * i + 1);
    w[i] = _mm512_add_ps(_mm512_shuffle_f32x4(a, b, 0x44), _mm512_shuffle_f32x4(a, b, 0xee));
  }
  // Again: chunk k of u[j] holds 4 partial sums of v[4j + k].
  __m512 u[4];
  for (int j = 0; j < 4; ++j) {
    const __m512 c = w[2 * j], d = w[2 * j + 1];
    u[j] = _mm512_add_ps(_mm512_shuffle_f32x4(c, d, _MM_SHUFFLE(2, 0, 2, 0)),
                         _mm512_shuffle_f32x4(c, d, _MM_SHUFFLE(3, 1, 3, 1)));
  }
  // Within each chunk k: lane l becomes the whole sum of u[l]'s chunk k,
  // that is of v[4l + k].
  const __m512 s01 = _mm512_add_ps(_mm512_unpacklo_ps(u[0], u[1]), _mm512_unpackhi_ps(u[0], u[1]));
  const __m512 s23 = _mm512_add_ps(_mm512_unpacklo_ps(u[2], u[3]), _mm512_unpackhi_ps(u[2], u[3]));
  const __m512 sums = _mm512_add_ps(_mm512_shuffle_ps(s01, s23, _MM_SHUFFLE(1, 0, 1, 0)),
                                    _mm512_shuffle_ps(s01, s23, _MM_SHUFFLE(3, 2, 3, 2)));
  // Lane 4k + l holds v[4l + k]: transpose the 4 x 4 lane grid.
  const __m512i order = _mm512_setr_epi32(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15);
  return _mm512_permutexvar_ps(order, sums);
}

// y[(t0 + t) * y_stride + r0 + r] = the sum of acc[r][t]'s lanes, for a
// micro-tile of R rows and T tokens (R * T <= 16).
template <int R, int T>
inline void store_tile_sums(const __m512 (&acc)[R][T], float* y, int64_t y_stride, int64_t r0,
                            int64_t t0) {
  static_assert(R * T <= 16);
  __m512 by_token[R * T];
  for (int t = 0; t < T; ++t) {
    for (int r = 0; r < R; ++r) by_token[t * R + r] = acc[r][t];
  }
  const __m512 sums = sum_each<R * T>(by_token);
  const __m512i lanes = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
  const auto row_mask = static_cast<__mmask16>((1u << R) - 1);
  for (int t = 0; t < T; ++t) {
    // Token t's R sums are lanes [t * R, t * R + R): move them to 0.
    const __m512 mine =
        _mm512_permutexvar_ps(_mm512_add_epi32(lanes, _mm512_set1_epi32(t * R)), sums);
    _mm512_mask_storeu_ps(y + (t0 + t) * y_stride + r0, row_mask, mine);
  }
}

}  // namespace ingot::kernels::avx512
