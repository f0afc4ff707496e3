// The interleaved kernels (matmul_interleaved_shape.h) on AVX2 with
// AVX-VNNI: one vpdpbusd on 256 bits per dot step (its sums do not
// saturate), so it covers every interleaved type.
#include "kernels/x86/matmul_interleaved_avx2_lanes.h"

namespace ingot::kernels {
namespace {

struct VnniDot {
  static constexpr bool kPairSums = false;
  static __m256i dot(__m256i acc, __m256i u, __m256i s) {
    return _mm256_dpbusd_avx_epi32(acc, u, s);
  }
};

using Lanes = Avx2Lanes<VnniDot>;

}  // namespace

TileKernel avxvnni::interleaved_tile_kernel(ElementType type) {
  switch (type) {
    case ElementType::kQ4_0:
      return interleaved_or_blocks<Lanes, Q4_0Groups, ElementType::kQ4_0>;
    case ElementType::kIQ4_NL:
      return interleaved_or_blocks<Lanes, IQ4_NLGroups, ElementType::kIQ4_NL>;
    case ElementType::kMXFP4:
      return interleaved_or_blocks<Lanes, MXFP4Groups, ElementType::kMXFP4>;
    case ElementType::kIQ4_XS:
      return interleaved_or_blocks<Lanes, IQ4XSGroups, ElementType::kIQ4_XS>;
    case ElementType::kQ8_0:
      return interleaved_or_blocks<Lanes, Q8_0Groups, ElementType::kQ8_0>;
    case ElementType::kQ4_K:
      return interleaved_or_blocks<Lanes, Q4KGroups, ElementType::kQ4_K>;
    case ElementType::kQ6_K:
      return interleaved_or_blocks<Lanes, Q6KGroups, ElementType::kQ6_K>;
    default:
      return nullptr;
  }
}

}  // namespace ingot::kernels
