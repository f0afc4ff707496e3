// The float matmul kernels (matmul_float_shape.h) on this path's vectors.
#include "kernels/matmul_float_shape.h"
#include "kernels/matmul_kernels_neon.h"
#include "kernels/ops_vector_math_neon.h"

namespace ingot::kernels {
namespace {

struct Tiles {
  static constexpr int kRows = 4;
  static constexpr int kTokens = 3;
  static constexpr int kDecodeRows = 4;
};
using Kernels = FloatTiles<neon::Floats, Tiles>;

}  // namespace

void f16_tile_neon(const WeightMatrix& w, const PackedActivations& x, TileRange range, float* y,
                   int64_t y_stride) {
  Kernels::f16(w, x, range, y, y_stride);
}

void bf16_tile_neon(const WeightMatrix& w, const PackedActivations& x, TileRange range, float* y,
                    int64_t y_stride) {
  Kernels::bf16(w, x, range, y, y_stride);
}

void f32_tile_neon(const WeightMatrix& w, const PackedActivations& x, TileRange range, float* y,
                   int64_t y_stride) {
  Kernels::f32(w, x, range, y, y_stride);
}

}  // namespace ingot::kernels
