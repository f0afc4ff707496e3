// The float matmul kernels (matmul_float_shape.h) on this path's vectors.
#include "kernels/shapes/matmul_float_shape.h"
#include "kernels/x86/matmul_kernels_avx2.h"
#include "kernels/x86/ops_vector_math_avx2.h"

namespace ingot::kernels {
namespace {

struct Tiles {
  static constexpr int kRows = 4;
  static constexpr int kTokens = 3;
  static constexpr int kDecodeRows = 4;
};
using Kernels = FloatTiles<avx2::Floats, Tiles>;

}  // namespace

void avx2::f16_tile(const WeightMatrix& w, const PackedActivations& x, TileRange range, float* y,
                    int64_t y_stride) {
  Kernels::f16(w, x, range, y, y_stride);
}

void avx2::bf16_tile(const WeightMatrix& w, const PackedActivations& x, TileRange range, float* y,
                     int64_t y_stride) {
  Kernels::bf16(w, x, range, y, y_stride);
}

void avx2::f32_tile(const WeightMatrix& w, const PackedActivations& x, TileRange range, float* y,
                    int64_t y_stride) {
  Kernels::f32(w, x, range, y, y_stride);
}

}  // namespace ingot::kernels
