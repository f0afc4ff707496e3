#pragma once
// The AVX-512 super-block micro-tile (SuperBlockTile in
// shapes/block_tile_shape.h): 4 rows x 4 tokens, DecodeRows rows in
// decode, one float vector per (row, token). Included only by *_avx512.cpp
// files.

#include <immintrin.h>

#include "kernels/shapes/block_tile_shape.h"

namespace ingot::kernels {
namespace {

struct FloatSumAvx512 {
  __m512 sum = _mm512_setzero_ps();
  float total() const { return _mm512_reduce_add_ps(sum); }
};

template <int DecodeRows>
using SuperBlockTileAvx512 = SuperBlockTile<FloatSumAvx512, 4, DecodeRows>;

}  // namespace
}  // namespace ingot::kernels
