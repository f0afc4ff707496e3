// The float matmul kernels (matmul_float_shape.h) on this path's vectors.
#include "kernels/arm/matmul_kernels_neon.h"
#include "kernels/arm/ops_vector_math_neon.h"
#include "kernels/shapes/matmul_float_shape.h"

namespace ingot::kernels {

TileList neon::float_tiles() {
  return FloatTiles<neon::Floats, FloatTileSize<4, 3, 4>>::kList;
}

}  // namespace ingot::kernels
