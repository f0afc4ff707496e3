#pragma once
// The AVX-512 micro-tile of the kernels over 256-element super-blocks (the
// K-quants and IQ4_XS) against Q8_K activations, for BlockTile
// (shapes/block_tile_shape.h): 4 rows x 4 tokens, DecodeRows rows in
// decode, the activation block read in place, one float vector per (row,
// token). Included only by *_avx512.cpp files.

#include <immintrin.h>

#include "kernels/block_formats.h"
#include "kernels/f16_table.h"
#include "kernels/shapes/block_tile_shape.h"

namespace ingot::kernels {
namespace {

template <int DecodeRows>
struct SuperBlockTileAvx512 {
  using XStep = const BlockQ8_K*;
  static constexpr int kBlockElems = kQK_K;
  static constexpr int kRows = 4;
  static constexpr int kTokens = 4;
  static constexpr int kDecodeRows = DecodeRows;

  struct Acc {
    __m512 sum = _mm512_setzero_ps();
  };
  static float total(const Acc& acc) { return _mm512_reduce_add_ps(acc.sum); }

  XStep activations(const PackedActivations& x, int64_t token, int64_t b) const {
    return activation_block<BlockQ8_K>(x, token, b);
  }

  const float* f16_ = f16_table();
};

}  // namespace
}  // namespace ingot::kernels
