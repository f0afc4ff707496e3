// The float matmul kernels (matmul_float_shape.h) on this path's vectors.
// GCC 12 flags the deliberately undefined lanes inside its own AVX-512
// intrinsics (cvtph_ps, reduce_add) as uninitialized: a false positive.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#include "kernels/matmul_float_shape.h"
#include "kernels/matmul_kernels_avx512.h"
#include "kernels/ops_vector_math_avx512.h"

namespace ingot::kernels {
namespace {

struct Tiles {
  static constexpr int kRows = 4;
  static constexpr int kTokens = 4;
  static constexpr int kDecodeRows = 8;
};
using Kernels = FloatTiles<avx512::Floats, Tiles>;

}  // namespace

void f16_tile_avx512(const WeightMatrix& w, const PackedActivations& x, TileRange range, float* y,
                     int64_t y_stride) {
  Kernels::f16(w, x, range, y, y_stride);
}

void bf16_tile_avx512(const WeightMatrix& w, const PackedActivations& x, TileRange range, float* y,
                      int64_t y_stride) {
  Kernels::bf16(w, x, range, y, y_stride);
}

void f32_tile_avx512(const WeightMatrix& w, const PackedActivations& x, TileRange range, float* y,
                     int64_t y_stride) {
  Kernels::f32(w, x, range, y, y_stride);
}

}  // namespace ingot::kernels
