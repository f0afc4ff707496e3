// The interleaved kernels (matmul_interleaved_shape.h) on AVX2 with
// AVX-VNNI: one vpdpbusd on 256 bits per dot step, for every interleaved
// type (its sums do not saturate).
#include "kernels/matmul_interleaved_avx2_lanes.h"
#include "kernels/matmul_interleaved_shape.h"
#include "kernels/matmul_kernels_avx2.h"

namespace ingot::kernels {
namespace {

struct VnniDot {
  static __m256i dot(__m256i acc, __m256i u, __m256i s) {
    return _mm256_dpbusd_avx_epi32(acc, u, s);
  }
};

using Lanes = Avx2Lanes<VnniDot>;

// Interleaved weights through the kernel above, the original blocks
// through the block-at-a-time one.
template <class G, ElementType kType>
void interleaved_or_blocks(const WeightMatrix& w, const PackedActivations& x, TileRange range,
                           float* y, int64_t y_stride) {
  if (w.interleaved != nullptr && x.interleaved_row(0) != nullptr) {
    return run_tile<Interleaved<Lanes, G>>(w, x, range, y, y_stride);
  }
  avx2_tile_kernel(kType)(w, x, range, y, y_stride);
}

}  // namespace

TileKernel avxvnni_interleaved_tile_kernel(ElementType type) {
  switch (type) {
    case ElementType::kQ4_0:
      return interleaved_or_blocks<Q4_0Groups<Lanes>, ElementType::kQ4_0>;
    case ElementType::kIQ4_NL:
      return interleaved_or_blocks<IQ4_NLGroups<Lanes>, ElementType::kIQ4_NL>;
    case ElementType::kMXFP4:
      return interleaved_or_blocks<MXFP4Groups<Lanes>, ElementType::kMXFP4>;
    case ElementType::kIQ4_XS:
      return interleaved_or_blocks<IQ4XSGroups<Lanes>, ElementType::kIQ4_XS>;
    case ElementType::kQ8_0:
      return interleaved_or_blocks<Q8_0Groups<Lanes>, ElementType::kQ8_0>;
    case ElementType::kQ4_K:
      return interleaved_or_blocks<Q4KGroups<Lanes>, ElementType::kQ4_K>;
    case ElementType::kQ6_K:
      return interleaved_or_blocks<Q6KGroups<Lanes>, ElementType::kQ6_K>;
    default:
      return nullptr;
  }
}

}  // namespace ingot::kernels
