// The interleaved kernels (matmul_interleaved_shape.h) on AVX2 without
// VNNI: vpmaddubsw multiplies unsigned by signed bytes into pairs of 16-bit
// sums, which saturate past 32767, so the types whose unsigned values stay
// small take them as they are (Q4_0's and Q4_K's nibbles, MXFP4's values
// plus 16, Q6_K's 0..63), and Q8_0, IQ4_NL and IQ4_XS as magnitudes
// against activations given their signs. The pair sums of several dot
// steps add up in 16 bits (as many as cannot saturate for the type's
// largest value) before vpmaddwd by ones widens them into the lanes.
#include "kernels/x86/matmul_interleaved_avx2_lanes.h"

namespace ingot::kernels {
namespace {

struct MaddubsDot {
  static constexpr bool kPairSums = true;
  static __m256i dot(__m256i acc, __m256i u, __m256i s) {
    const __m256i pairs = _mm256_maddubs_epi16(u, s);
    return _mm256_add_epi32(acc, _mm256_madd_epi16(pairs, _mm256_set1_epi16(1)));
  }
};

using Lanes = Avx2Lanes<MaddubsDot>;

}  // namespace

TileKernel avx2::interleaved_tile_kernel(ElementType type) {
  return find_tile({kInterleavedTiles<Lanes>}, type);
}

}  // namespace ingot::kernels
