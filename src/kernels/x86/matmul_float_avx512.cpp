// The float matmul kernels (matmul_float_shape.h) on this path's vectors.
// GCC 12 flags the deliberately undefined lanes inside its own AVX-512
// intrinsics (cvtph_ps, reduce_add) as uninitialized: a false positive.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#include "kernels/shapes/matmul_float_shape.h"
#include "kernels/x86/matmul_kernels_avx512.h"
#include "kernels/x86/ops_vector_math_avx512.h"

namespace ingot::kernels {

TileList avx512::float_tiles() {
  return FloatTiles<avx512::Floats, FloatTileSize<4, 4, 8>>::kList;
}

}  // namespace ingot::kernels
