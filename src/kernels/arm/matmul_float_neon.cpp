// The float matmul kernels (matmul_float_shape.h) on this path's vectors.
#include "kernels/arm/matmul_kernels_neon.h"
#include "kernels/arm/ops_vector_math_neon.h"
#include "kernels/shapes/matmul_float_shape.h"

namespace ingot::kernels {
namespace {

struct Tiles {
  static constexpr int kRows = 4;
  static constexpr int kTokens = 3;
  static constexpr int kDecodeRows = 4;
};
using Kernels = FloatTiles<neon::Floats, Tiles>;

}  // namespace

void neon::f16_tile(const WeightMatrix& w, const PackedActivations& x, TileRange range, float* y,
                    int64_t y_stride) {
  Kernels::f16(w, x, range, y, y_stride);
}

void neon::bf16_tile(const WeightMatrix& w, const PackedActivations& x, TileRange range, float* y,
                     int64_t y_stride) {
  Kernels::bf16(w, x, range, y, y_stride);
}

void neon::f32_tile(const WeightMatrix& w, const PackedActivations& x, TileRange range, float* y,
                    int64_t y_stride) {
  Kernels::f32(w, x, range, y, y_stride);
}

}  // namespace ingot::kernels
