#pragma once
// Walks a tile of output rows x tokens in micro-tiles of kRows x kTokens,
// with smaller micro-tiles at the edges. Kernel::run<R, T>(w, x, r, t, y,
// y_stride) computes y for rows r..r+R-1 and tokens t..t+T-1. A single
// token (decode) takes micro-tiles of kDecodeRows x 1; a kernel may also
// give kSmallBatchRows for tiles of 2 to 4 tokens (a few sequences decoded
// together), which then take micro-tiles of kSmallBatchRows x 2.
//
// Included only by the SIMD files (*_avx2.cpp, *_neon.cpp, ...); everything here is
// in an unnamed namespace on purpose: each instruction set's file gets its
// own copy, compiled for that set, which the linker cannot merge with
// another file's copy.

#include <cstdint>

#include "kernels/dispatch.h"

namespace ingot::kernels {
namespace {

// The last `left` (< N + 1) tokens of a token range, in one micro-tile.
template <class Kernel, int R, int N>
inline void run_last_tokens(const WeightMatrix& w, const PackedActivations& x, int64_t r, int64_t t,
                            int64_t left, float* y, int64_t y_stride) {
  if constexpr (N > 0) {
    if (left == N) return Kernel::template run<R, N>(w, x, r, t, y, y_stride);
    run_last_tokens<Kernel, R, N - 1>(w, x, r, t, left, y, y_stride);
  }
}

template <class Kernel, int R, int T = Kernel::kTokens>
inline void run_token_range(const WeightMatrix& w, const PackedActivations& x, int64_t r,
                            TileRange range, float* y, int64_t y_stride) {
  int64_t t = range.tok_begin;
  for (; t + T <= range.tok_end; t += T) Kernel::template run<R, T>(w, x, r, t, y, y_stride);
  run_last_tokens<Kernel, R, T - 1>(w, x, r, t, range.tok_end - t, y, y_stride);
}

// Kernel::kSmallBatchRows, or 0 for kernels without small-batch tiles.
template <class Kernel>
constexpr int small_batch_rows() {
  if constexpr (requires { Kernel::kSmallBatchRows; }) {
    return Kernel::kSmallBatchRows;
  } else {
    return 0;
  }
}

template <class Kernel>
void run_tile(const WeightMatrix& w, const PackedActivations& x, TileRange range, float* y,
              int64_t y_stride) {
  constexpr int R = Kernel::kRows;
  int64_t r = range.row_begin;
  const int64_t n_tokens = range.tok_end - range.tok_begin;
  if constexpr (constexpr int kSmallRows = small_batch_rows<Kernel>(); kSmallRows > 0) {
    if (n_tokens >= 2 && n_tokens <= 4) {
      for (; r + kSmallRows <= range.row_end; r += kSmallRows) {
        run_token_range<Kernel, kSmallRows, 2>(w, x, r, range, y, y_stride);
      }
    }
  }
  if (n_tokens == 1) {
    // Decode: one token, so block more rows per pass over the activations.
    constexpr int kDecodeRows = Kernel::kDecodeRows;
    for (; r + kDecodeRows <= range.row_end; r += kDecodeRows) {
      Kernel::template run<kDecodeRows, 1>(w, x, r, range.tok_begin, y, y_stride);
    }
  }
  for (; r + R <= range.row_end; r += R) run_token_range<Kernel, R>(w, x, r, range, y, y_stride);
  for (; r < range.row_end; ++r) run_token_range<Kernel, 1>(w, x, r, range, y, y_stride);
}

}  // namespace
}  // namespace ingot::kernels
