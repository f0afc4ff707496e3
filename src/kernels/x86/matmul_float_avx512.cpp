// The float matmul kernels (matmul_float_shape.h) on this path's vectors.
// GCC 12 flags the deliberately undefined lanes inside its own AVX-512
// intrinsics (cvtph_ps, reduce_add) as uninitialized: a false positive.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#include "kernels/shapes/matmul_float_shape.h"
#include "kernels/x86/matmul_kernels_avx512.h"
#include "kernels/x86/ops_vector_math_avx512.h"

namespace ingot::kernels {
namespace {

struct Tiles {
  static constexpr int kRows = 4;
  static constexpr int kTokens = 4;
  static constexpr int kDecodeRows = 8;
};
using Kernels = FloatTiles<avx512::Floats, Tiles>;

constexpr TileEntry kTiles[] = {
    TileEntry{ElementType::kF32, Kernels::f32},
    TileEntry{ElementType::kF16, Kernels::f16},
    TileEntry{ElementType::kBF16, Kernels::bf16},
};

}  // namespace

TileList avx512::float_tiles() {
  return kTiles;
}

}  // namespace ingot::kernels
