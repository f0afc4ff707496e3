// AVX2 kernels for F16 weights (against F16-packed activations) and F32
// weights: 8 columns per step with FMA; the last columns, fewer than 8,
// are added one by one.
#include <immintrin.h>

#include <cstring>

#include "kernels/f16_table.h"
#include "kernels/horizontal_reduce_avx2.h"
#include "kernels/matmul_kernels_avx2.h"
#include "kernels/prefetch.h"
#include "kernels/tile_loop.h"

namespace ingot::kernels {
namespace {

struct F16Elements {
  using Element = uint16_t;
  static __m256 load(const uint16_t* p) {
    return _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
  }
  static float scalar(const uint16_t* p) { return f16_table()[*p]; }
};

// BF16 is the top half of an F32: widen and shift.
struct BF16Elements {
  using Element = uint16_t;
  static __m256 load(const uint16_t* p) {
    const __m128i h = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    return _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_cvtepu16_epi32(h), 16));
  }
  static float scalar(const uint16_t* p) {
    const uint32_t bits = static_cast<uint32_t>(*p) << 16;
    float f;
    std::memcpy(&f, &bits, 4);
    return f;
  }
};

struct F32Elements {
  using Element = float;
  static __m256 load(const float* p) { return _mm256_loadu_ps(p); }
  static float scalar(const float* p) { return *p; }
};

template <class E>
struct FloatKernelAvx2 {
  static constexpr int kRows = 4;
  static constexpr int kTokens = 3;
  static constexpr int kDecodeRows = 4;

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
    __m256 acc[R][T];
    for (int r = 0; r < R; ++r) {
      for (int t = 0; t < T; ++t) acc[r][t] = _mm256_setzero_ps();
    }
    const bool prefetch = first_pass_over_rows(t0);
    const size_t ahead = prefetch_distance(R, w.row_stride);
    int64_t i = 0;
    for (; i + 8 <= w.cols; i += 8) {
      if (prefetch && i * sizeof(Element) % 64 == 0) {
        prefetch_rows_ahead<R>(rows, ahead, i * sizeof(Element), 64);
      }
      __m256 xv[T];
      for (int t = 0; t < T; ++t) xv[t] = E::load(xs[t] + i);
      for (int r = 0; r < R; ++r) {
        const __m256 wv = E::load(rows[r] + i);
        for (int t = 0; t < T; ++t) acc[r][t] = _mm256_fmadd_ps(wv, xv[t], acc[r][t]);
      }
    }
    for (int t = 0; t < T; ++t) {
      for (int r = 0; r < R; ++r) {
        float sum = horizontal_sum(acc[r][t]);
        for (int64_t j = i; j < w.cols; ++j) sum += E::scalar(rows[r] + j) * E::scalar(xs[t] + j);
        y[(t0 + t) * y_stride + r0 + r] = sum;
      }
    }
  }
};

}  // namespace

void f16_tile_avx2(const WeightMatrix& w, const PackedActivations& x, TileRange range, float* y,
                   int64_t y_stride) {
  run_tile<FloatKernelAvx2<F16Elements>>(w, x, range, y, y_stride);
}

void bf16_tile_avx2(const WeightMatrix& w, const PackedActivations& x, TileRange range, float* y,
                    int64_t y_stride) {
  run_tile<FloatKernelAvx2<BF16Elements>>(w, x, range, y, y_stride);
}

void f32_tile_avx2(const WeightMatrix& w, const PackedActivations& x, TileRange range, float* y,
                   int64_t y_stride) {
  run_tile<FloatKernelAvx2<F32Elements>>(w, x, range, y, y_stride);
}

}  // namespace ingot::kernels
