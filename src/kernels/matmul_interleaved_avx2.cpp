// The interleaved kernels (matmul_interleaved_shape.h) on AVX2 without
// VNNI: vpmaddubsw multiplies unsigned by signed bytes into pairs of 16-bit
// sums, which saturate past 32767, so only the types whose unsigned values
// stay small take them (Q4_0's and Q4_K's nibbles, MXFP4's values plus 16,
// Q6_K's 0..63); Q8_0, IQ4_NL and IQ4_XS, offset by 128, keep the
// block-at-a-time kernels. vpmaddwd by ones then adds the pairs into lanes.
#include "kernels/matmul_interleaved_avx2_lanes.h"
#include "kernels/matmul_interleaved_shape.h"
#include "kernels/matmul_kernels_avx2.h"

namespace ingot::kernels {
namespace {

struct MaddubsDot {
  static __m256i dot(__m256i acc, __m256i u, __m256i s) {
    const __m256i pairs = _mm256_maddubs_epi16(u, s);
    return _mm256_add_epi32(acc, _mm256_madd_epi16(pairs, _mm256_set1_epi16(1)));
  }
};

using Lanes = Avx2Lanes<MaddubsDot>;

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

TileKernel avx2_interleaved_tile_kernel(ElementType type) {
  switch (type) {
    case ElementType::kQ4_0:
      return interleaved_or_blocks<Q4_0Groups<Lanes>, ElementType::kQ4_0>;
    case ElementType::kMXFP4:
      return interleaved_or_blocks<MXFP4Groups<Lanes>, ElementType::kMXFP4>;
    case ElementType::kQ4_K:
      return interleaved_or_blocks<Q4KGroups<Lanes>, ElementType::kQ4_K>;
    case ElementType::kQ6_K:
      return interleaved_or_blocks<Q6KGroups<Lanes>, ElementType::kQ6_K>;
    default:
      return nullptr;
  }
}

}  // namespace ingot::kernels
