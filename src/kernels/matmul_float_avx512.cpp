// AVX-512 kernels for F16 weights (against F16-packed activations, as
// llama.cpp multiplies them) and F32 weights: 16 columns per step, widened
// to F32 and accumulated with FMA; a masked step covers the last columns.
// GCC 12 flags the deliberately undefined lanes inside its own AVX-512
// intrinsics (cvtph_ps, reduce_add) as uninitialized.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#include <immintrin.h>

#include "kernels/matmul_kernels_avx512.h"
#include "kernels/prefetch.h"
#include "kernels/tile_loop.h"

namespace ingot::kernels {
namespace {

struct F16Elements {
  using Element = uint16_t;
  static __m512 load(const uint16_t* p) {
    return _mm512_cvtph_ps(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)));
  }
  static __m512 load_masked(const uint16_t* p, __mmask16 mask) {
    return _mm512_cvtph_ps(_mm256_maskz_loadu_epi16(mask, p));
  }
};

// BF16 is the top half of an F32: widen and shift.
struct BF16Elements {
  using Element = uint16_t;
  static __m512 load(const uint16_t* p) {
    const __m256i h = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
    return _mm512_castsi512_ps(_mm512_slli_epi32(_mm512_cvtepu16_epi32(h), 16));
  }
  static __m512 load_masked(const uint16_t* p, __mmask16 mask) {
    return _mm512_castsi512_ps(
        _mm512_slli_epi32(_mm512_cvtepu16_epi32(_mm256_maskz_loadu_epi16(mask, p)), 16));
  }
};

struct F32Elements {
  using Element = float;
  static __m512 load(const float* p) { return _mm512_loadu_ps(p); }
  static __m512 load_masked(const float* p, __mmask16 mask) {
    return _mm512_maskz_loadu_ps(mask, p);
  }
};

template <class E>
struct FloatKernel {
  static constexpr int kRows = 4;
  static constexpr int kTokens = 4;
  static constexpr int kDecodeRows = 8;

  template <int R, int T>
  static void run(const WeightMatrix& w, const PackedActivations& x, int64_t r0, int64_t t0,
                  float* y, int64_t y_stride) {
    using Element = typename E::Element;
    const Element* rows[R];
    for (int r = 0; r < R; ++r) {
      rows[r] = reinterpret_cast<const Element*>(static_cast<const uint8_t*>(w.data) +
                                                 (r0 + r) * w.row_stride);
    }
    const Element* xs[T];
    for (int t = 0; t < T; ++t) xs[t] = reinterpret_cast<const Element*>(x.row(t0 + t));
    __m512 acc[R][T];
    for (int r = 0; r < R; ++r) {
      for (int t = 0; t < T; ++t) acc[r][t] = _mm512_setzero_ps();
    }
    const bool prefetch = first_pass_over_rows(t0);
    const size_t ahead = prefetch_distance(R, w.row_stride);
    int64_t i = 0;
    for (; i + 16 <= w.cols; i += 16) {
      if (prefetch && i * sizeof(Element) % 64 == 0)
        prefetch_rows_ahead<R>(rows, ahead, i * sizeof(Element), 64);
      __m512 xv[T];
      for (int t = 0; t < T; ++t) xv[t] = E::load(xs[t] + i);
      for (int r = 0; r < R; ++r) {
        const __m512 wv = E::load(rows[r] + i);
        for (int t = 0; t < T; ++t) acc[r][t] = _mm512_fmadd_ps(wv, xv[t], acc[r][t]);
      }
    }
    if (i < w.cols) {
      const auto mask = static_cast<__mmask16>((1u << (w.cols - i)) - 1);
      __m512 xv[T];
      for (int t = 0; t < T; ++t) xv[t] = E::load_masked(xs[t] + i, mask);
      for (int r = 0; r < R; ++r) {
        const __m512 wv = E::load_masked(rows[r] + i, mask);
        for (int t = 0; t < T; ++t) acc[r][t] = _mm512_fmadd_ps(wv, xv[t], acc[r][t]);
      }
    }
    for (int t = 0; t < T; ++t) {
      for (int r = 0; r < R; ++r) y[(t0 + t) * y_stride + r0 + r] = _mm512_reduce_add_ps(acc[r][t]);
    }
  }
};

}  // namespace

void f16_tile_avx512(const WeightMatrix& w, const PackedActivations& x, TileRange range, float* y,
                     int64_t y_stride) {
  run_tile<FloatKernel<F16Elements>>(w, x, range, y, y_stride);
}

void bf16_tile_avx512(const WeightMatrix& w, const PackedActivations& x, TileRange range, float* y,
                      int64_t y_stride) {
  run_tile<FloatKernel<BF16Elements>>(w, x, range, y, y_stride);
}

void f32_tile_avx512(const WeightMatrix& w, const PackedActivations& x, TileRange range, float* y,
                     int64_t y_stride) {
  run_tile<FloatKernel<F32Elements>>(w, x, range, y, y_stride);
}

}  // namespace ingot::kernels
