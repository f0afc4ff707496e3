// The float matmul kernels (matmul_float_shape.h) on this path's vectors.
#include "kernels/shapes/matmul_float_shape.h"
#include "kernels/x86/matmul_kernels_avx2.h"
#include "kernels/x86/ops_vector_math_avx2.h"

namespace ingot::kernels {

TileList avx2::float_tiles() {
  return FloatTiles<avx2::Floats, FloatTileSize<4, 3, 4>>::kList;
}

}  // namespace ingot::kernels
