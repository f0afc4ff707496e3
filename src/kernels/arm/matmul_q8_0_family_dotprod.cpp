// The 32-element block types and the super-block types with the DotProd
// extension (SDOT).
#include "kernels/arm/matmul_k_quants_neon_shape.h"
#include "kernels/arm/matmul_kernels_neon.h"
#include "kernels/arm/matmul_q8_0_family_neon_shape.h"

namespace ingot::kernels {
namespace {

template <class Q>
using SdotKernel = Q8FamilyNeon<Q, SdotDot>;

}  // namespace

TileKernel dotprod::q8_0_family_tile(ElementType weight_type) {
  return Q8FamilyTiles<SdotKernel>::for_type(weight_type);
}

TileKernel dotprod::k_quants_tile(ElementType weight_type) {
  return k_quants_tile_for<SdotDot>(weight_type);
}

}  // namespace ingot::kernels
