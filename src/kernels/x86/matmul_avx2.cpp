// The AVX2 path (AVX2 + FMA + F16C): which family serves which type. Types
// without a kernel here fall back to the scalar path.
#include "kernels/x86/matmul_kernels_avx2.h"

namespace ingot::kernels {

TileKernel avx2::tile_kernel(ElementType type) {
  return find_tile(
      {float_tiles(), q8_0_family_tiles(), k_quant_tiles(), k_low_bit_tiles(), iq4_xs_tiles()},
      type);
}

PackRowFn avx2::pack_row(ElementType packed) {
  return Packers{pack_q8_0, pack_q8_1, pack_q8_k, pack_f16}.for_type(packed);
}

}  // namespace ingot::kernels
