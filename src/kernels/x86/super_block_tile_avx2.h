#pragma once
// The AVX2 super-block micro-tile (SuperBlockTile in
// shapes/block_tile_shape.h): 4 rows x 2 tokens, 4 rows in decode, one
// float vector per (row, token). Included only by *_avx2.cpp files.

#include <immintrin.h>

#include "kernels/shapes/block_tile_shape.h"
#include "kernels/x86/horizontal_reduce_avx2.h"

namespace ingot::kernels {
namespace {

struct FloatSumAvx2 {
  __m256 sum = _mm256_setzero_ps();
  float total() const { return horizontal_sum(sum); }
};

using SuperBlockTileAvx2 = SuperBlockTile<FloatSumAvx2, 2, 4>;

}  // namespace
}  // namespace ingot::kernels
