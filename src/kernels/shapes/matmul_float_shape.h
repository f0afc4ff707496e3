#pragma once
// The float matmul kernels (F16, BF16 and F32 weights against activations
// packed in the same type, as llama.cpp multiplies them) written once for
// every vector width: kLanes columns per step, widened to F32 and
// accumulated with FMA into one register per (row, token) of the
// micro-tile; a last step of fewer columns loads zeros past them. V is a
// Floats policy (ops_float_shape.h) that also gives load_f16(_part) and
// load_bf16(_part); Tiles gives the micro-tile (kRows, kTokens,
// kDecodeRows, tile_loop.h). Include only from the SIMD files that define
// V; everything here is in an unnamed namespace.

#include <cstdint>

#include "kernels/matmul.h"
#include "kernels/packed_activations.h"
#include "kernels/path_lists.h"
#include "kernels/shapes/prefetch.h"
#include "kernels/shapes/tile_loop.h"

namespace ingot::kernels {
namespace {

template <class V>
struct F16Lanes {
  using Element = uint16_t;
  static typename V::F load(const uint16_t* p) { return V::load_f16(p); }
  static typename V::F load_part(const uint16_t* p, int64_t n) { return V::load_f16_part(p, n); }
};

template <class V>
struct BF16Lanes {
  using Element = uint16_t;
  static typename V::F load(const uint16_t* p) { return V::load_bf16(p); }
  static typename V::F load_part(const uint16_t* p, int64_t n) { return V::load_bf16_part(p, n); }
};

template <class V>
struct F32Lanes {
  using Element = float;
  static typename V::F load(const float* p) { return V::load(p); }
  static typename V::F load_part(const float* p, int64_t n) { return V::load_part(p, n, 0.0f); }
};

template <class V, class E, class Tiles>
struct FloatTileKernel {
  static constexpr int kRows = Tiles::kRows;
  static constexpr int kTokens = Tiles::kTokens;
  static constexpr int kDecodeRows = Tiles::kDecodeRows;

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
    typename V::F acc[R][T];
    for (int r = 0; r < R; ++r) {
      for (int t = 0; t < T; ++t) acc[r][t] = V::broadcast(0.0f);
    }
    const bool prefetch = first_pass_over_rows(t0);
    const size_t ahead = prefetch_distance(R, w.row_stride);
    int64_t i = 0;
    for (; i + V::kLanes <= w.cols; i += V::kLanes) {
      if (prefetch && i * sizeof(Element) % 64 == 0) {
        prefetch_rows_ahead<R>(rows, ahead, i * sizeof(Element), 64);
      }
      typename V::F xv[T];
      for (int t = 0; t < T; ++t) xv[t] = E::load(xs[t] + i);
      for (int r = 0; r < R; ++r) {
        const typename V::F wv = E::load(rows[r] + i);
        for (int t = 0; t < T; ++t) acc[r][t] = V::fmadd(wv, xv[t], acc[r][t]);
      }
    }
    if (i < w.cols) {
      const int64_t count = w.cols - i;
      typename V::F xv[T];
      for (int t = 0; t < T; ++t) xv[t] = E::load_part(xs[t] + i, count);
      for (int r = 0; r < R; ++r) {
        const typename V::F wv = E::load_part(rows[r] + i, count);
        for (int t = 0; t < T; ++t) acc[r][t] = V::fmadd(wv, xv[t], acc[r][t]);
      }
    }
    for (int t = 0; t < T; ++t) {
      for (int r = 0; r < R; ++r) y[(t0 + t) * y_stride + r0 + r] = V::reduce_add(acc[r][t]);
    }
  }
};

// A path's micro-tile for the float kernels (see tile_loop.h).
template <int Rows, int Tokens, int DecodeRows>
struct FloatTileSize {
  static constexpr int kRows = Rows;
  static constexpr int kTokens = Tokens;
  static constexpr int kDecodeRows = DecodeRows;
};

// The F32, F16 and BF16 kernels of one path, by weight type.
template <class V, class Tiles>
struct FloatTiles {
  static constexpr TileEntry kList[] = {
      {ElementType::kF32, run_tile<FloatTileKernel<V, F32Lanes<V>, Tiles>>},
      {ElementType::kF16, run_tile<FloatTileKernel<V, F16Lanes<V>, Tiles>>},
      {ElementType::kBF16, run_tile<FloatTileKernel<V, BF16Lanes<V>, Tiles>>},
  };
};

}  // namespace
}  // namespace ingot::kernels
