// The 32-element block types and the super-block types on baseline NEON:
// each product of two bytes widens to 16 bits (SMULL, where it always
// fits) and pairs of them add into 32-bit lanes (SADALP).
#include "kernels/arm/matmul_k_quants_neon_shape.h"
#include "kernels/arm/matmul_kernels_neon.h"
#include "kernels/arm/matmul_q8_0_family_neon_shape.h"

namespace ingot::kernels {
namespace {

struct WideningDot {
  static int32x4_t dot16(int32x4_t acc, int8x16_t w, int8x16_t x) {
    acc = vpadalq_s16(acc, vmull_s8(vget_low_s8(w), vget_low_s8(x)));
    return vpadalq_s16(acc, vmull_high_s8(w, x));
  }
  static int32x4_t dot(int32x4_t acc, Quants32 w, Quants32 x) {
    acc = vpadalq_s16(acc, vmull_s8(vget_low_s8(w.lo), vget_low_s8(x.lo)));
    acc = vpadalq_s16(acc, vmull_high_s8(w.lo, x.lo));
    acc = vpadalq_s16(acc, vmull_s8(vget_low_s8(w.hi), vget_low_s8(x.hi)));
    return vpadalq_s16(acc, vmull_high_s8(w.hi, x.hi));
  }
};

template <class Q>
using WideningKernel = Q8FamilyNeon<Q, WideningDot>;

}  // namespace

TileKernel neon::q8_0_family_tile(ElementType weight_type) {
  return Q8FamilyTiles<WideningKernel>::for_type(weight_type);
}

TileKernel neon::k_quants_tile(ElementType weight_type) {
  return k_quants_tile_for<WideningDot>(weight_type);
}

}  // namespace ingot::kernels
