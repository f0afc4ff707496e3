// The AVX2 path (AVX2 + FMA + F16C): which kernel serves which type. Types
// without a kernel here fall back to the scalar path.
#include "kernels/x86/matmul_kernels_avx2.h"

namespace ingot::kernels {

TileKernel avx2::tile_kernel(ElementType type) {
  switch (type) {
    case ElementType::kF32:
      return avx2::f32_tile;
    case ElementType::kF16:
      return avx2::f16_tile;
    case ElementType::kBF16:
      return avx2::bf16_tile;
    case ElementType::kQ4_0:
      return avx2::q4_0_tile;
    case ElementType::kQ4_1:
      return avx2::q4_1_tile;
    case ElementType::kQ5_0:
      return avx2::q5_0_tile;
    case ElementType::kQ5_1:
      return avx2::q5_1_tile;
    case ElementType::kQ8_0:
      return avx2::q8_0_tile;
    case ElementType::kIQ4_NL:
      return avx2::iq4_nl_tile;
    case ElementType::kMXFP4:
      return avx2::mxfp4_tile;
    case ElementType::kIQ4_XS:
      return avx2::iq4_xs_tile;
    case ElementType::kQ2_K:
      return avx2::q2_k_tile;
    case ElementType::kQ3_K:
      return avx2::q3_k_tile;
    case ElementType::kQ4_K:
      return avx2::q4_k_tile;
    case ElementType::kQ5_K:
      return avx2::q5_k_tile;
    case ElementType::kQ6_K:
      return avx2::q6_k_tile;
    default:
      return nullptr;
  }
}

PackRowFn avx2::pack_row(ElementType packed) {
  switch (packed) {
    case ElementType::kQ8_0:
      return avx2::pack_q8_0;
    case ElementType::kQ8_1:
      return avx2::pack_q8_1;
    case ElementType::kQ8_K:
      return avx2::pack_q8_k;
    case ElementType::kF16:
      return avx2::pack_f16;
    default:
      return nullptr;
  }
}

}  // namespace ingot::kernels
