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
  return find_tile({kInterleavedTiles<Lanes>}, type);
}

}  // namespace ingot::kernels
