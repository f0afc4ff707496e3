// The AVX2 path (AVX2 + FMA + F16C): which kernel serves which type. Types
// without a kernel here fall back to the scalar path.
#include "kernels/matmul_kernels_avx2.h"

namespace ingot::kernels {

TileKernel avx2_tile_kernel(ElementType type) {
  switch (type) {
    case ElementType::kF32:
      return f32_tile_avx2;
    case ElementType::kF16:
      return f16_tile_avx2;
    case ElementType::kBF16:
      return bf16_tile_avx2;
    case ElementType::kQ4_0:
      return q4_0_tile_avx2;
    case ElementType::kQ4_1:
      return q4_1_tile_avx2;
    case ElementType::kQ5_0:
      return q5_0_tile_avx2;
    case ElementType::kQ5_1:
      return q5_1_tile_avx2;
    case ElementType::kQ8_0:
      return q8_0_tile_avx2;
    case ElementType::kIQ4_NL:
      return iq4_nl_tile_avx2;
    case ElementType::kMXFP4:
      return mxfp4_tile_avx2;
    case ElementType::kIQ4_XS:
      return iq4_xs_tile_avx2;
    case ElementType::kQ2_K:
      return q2_k_tile_avx2;
    case ElementType::kQ3_K:
      return q3_k_tile_avx2;
    case ElementType::kQ4_K:
      return q4_k_tile_avx2;
    case ElementType::kQ5_K:
      return q5_k_tile_avx2;
    case ElementType::kQ6_K:
      return q6_k_tile_avx2;
    default:
      return nullptr;
  }
}

PackRowFn avx2_pack_row(ElementType packed) {
  switch (packed) {
    case ElementType::kQ8_0:
      return pack_q8_0_avx2;
    case ElementType::kQ8_1:
      return pack_q8_1_avx2;
    case ElementType::kQ8_K:
      return pack_q8_k_avx2;
    case ElementType::kF16:
      return pack_f16_avx2;
    default:
      return nullptr;
  }
}

}  // namespace ingot::kernels
