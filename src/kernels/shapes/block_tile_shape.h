#pragma once
// The micro-tile every block-at-a-time kernel shares, written once: R
// weight rows against T activation rows, one weight block per row and
// step, each row's block met by the same block of every token. What a
// kernel adds is the arithmetic of one block, over its instruction set's
// lanes. A kernel K gives:
//
//   Block, kBlockElems      the weight block and the elements it covers
//   kRows, kTokens, kDecodeRows (and kSmallBatchRows): see tile_loop.h
//   Acc                     one (row, token) accumulator, zero when made,
//                           and K::total(acc), its float result
//   XStep                   what one token's activation block gives every
//                           row (the block itself, or its quants loaded
//                           and its sums made), from
//                           k.activations(x, token, block)
//   k.accumulate<T>(block, xsteps, accs)   one row's block into its T
//                           accumulators
//
// K is made once per micro-tile, so that the constants its arithmetic
// needs (masks, shuffle indexes) are made outside the block loop.
//
// Like tile_loop.h, included only by the SIMD files, in an unnamed
// namespace: each instruction set's file compiles its own copy.

#include <cstdint>

#include "kernels/block_formats.h"
#include "kernels/dispatch.h"
#include "kernels/f16_table.h"
#include "kernels/shapes/prefetch.h"
#include "kernels/shapes/tile_loop.h"

namespace ingot::kernels {
namespace {

template <class K>
struct BlockTile {
  static constexpr int kRows = K::kRows;
  static constexpr int kTokens = K::kTokens;
  static constexpr int kDecodeRows = K::kDecodeRows;
  static constexpr int kSmallBatchRows = small_batch_rows<K>();

  template <int R, int T>
  static void run(const WeightMatrix& w, const PackedActivations& x, int64_t r0, int64_t t0,
                  float* y, int64_t y_stride) {
    using Block = typename K::Block;
    const Block* rows[R];
    for (int r = 0; r < R; ++r) {
      rows[r] = reinterpret_cast<const Block*>(static_cast<const uint8_t*>(w.data) +
                                               (r0 + r) * w.row_stride);
    }
    const K kernel;
    typename K::Acc acc[R][T];
    const int64_t blocks = w.cols / K::kBlockElems;
    const TilePrefetch prefetch(rows[0], R, w.row_stride, blocks, t0, T, x.n_tokens());
    for (int64_t b = 0; b < blocks; ++b) {
      prefetch.step(b);
      typename K::XStep xs[T];
      for (int t = 0; t < T; ++t) xs[t] = kernel.activations(x, t0 + t, b);
      for (int r = 0; r < R; ++r) kernel.template accumulate<T>(rows[r][b], xs, acc[r]);
    }
    for (int t = 0; t < T; ++t) {
      for (int r = 0; r < R; ++r) y[(t0 + t) * y_stride + r0 + r] = K::total(acc[r][t]);
    }
  }
};

// Block b of a token's activation row, for the kernels whose XStep is the
// activation block itself.
template <class XBlock>
inline const XBlock* activation_block(const PackedActivations& x, int64_t token, int64_t b) {
  return reinterpret_cast<const XBlock*>(x.row(token)) + b;
}

// The micro-tile of the kernels over 256-element super-blocks (the
// K-quants and IQ4_XS) against Q8_K activations read in place: 4 rows x
// Tokens, DecodeRows rows in decode. FloatSum is the path's accumulator,
// a float vector `sum` with its total().
template <class FloatSum, int Tokens, int DecodeRows>
struct SuperBlockTile {
  using XStep = const BlockQ8_K*;
  using Acc = FloatSum;
  static constexpr int kBlockElems = kQK_K;
  static constexpr int kRows = 4;
  static constexpr int kTokens = Tokens;
  static constexpr int kDecodeRows = DecodeRows;

  static float total(const Acc& acc) { return acc.total(); }

  XStep activations(const PackedActivations& x, int64_t token, int64_t b) const {
    return activation_block<BlockQ8_K>(x, token, b);
  }

  const float* f16_ = f16_table();
};

template <class K>
void run_block_tile(const WeightMatrix& w, const PackedActivations& x, TileRange range, float* y,
                    int64_t y_stride) {
  run_tile<BlockTile<K>>(w, x, range, y, y_stride);
}

}  // namespace
}  // namespace ingot::kernels
