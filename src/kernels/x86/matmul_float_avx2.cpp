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

constexpr TileEntry kTiles[] = {
    TileEntry{ElementType::kF32, Kernels::f32},
    TileEntry{ElementType::kF16, Kernels::f16},
    TileEntry{ElementType::kBF16, Kernels::bf16},
};

}  // namespace

TileList avx2::float_tiles() {
  return kTiles;
}

}  // namespace ingot::kernels
