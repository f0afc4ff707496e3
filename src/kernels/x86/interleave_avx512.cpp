// The activation side of the interleaved layout (kernels/interleave.h) on
// the AVX-512 path, byte-identical to interleave_activation_row: a group's
// 16 lanes are 16 blocks (Q8_K: 32-element sub-blocks) scattered through
// the packed row, so each of its 8 quant vectors is one masked gather of a
// 4-byte word per block, and vpdpbusd against ones sums each lane's quants.
// The scalar version was a visible share of a 4-sequence decode step.
// GCC 12 flags the deliberately undefined lanes inside its own AVX-512
// intrinsics as uninitialized.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#include <immintrin.h>

#include <algorithm>
#include <cstddef>
#include <cstring>

#include "kernels/block_formats.h"
#include "kernels/interleave.h"
#include "kernels/x86/matmul_kernels_avx512.h"

namespace ingot::kernels {
namespace {

// Byte offsets from a group's first block to each lane's scale and to its
// first quant.
struct LaneOffsets {
  __m512i scale;
  __m512i quants;
};

LaneOffsets q8_0_lanes() {
  const __m512i lane =
      _mm512_mullo_epi32(_mm512_set_epi32(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0),
                         _mm512_set1_epi32(sizeof(BlockQ8_0)));
  return {lane, _mm512_add_epi32(lane, _mm512_set1_epi32(offsetof(BlockQ8_0, qs)))};
}

// Lane i is sub-block i % 8 of super-block i / 8.
LaneOffsets q8_k_lanes() {
  const __m512i index = _mm512_set_epi32(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
  const __m512i super_block =
      _mm512_mullo_epi32(_mm512_srli_epi32(index, 3), _mm512_set1_epi32(sizeof(BlockQ8_K)));
  const __m512i sub_block = _mm512_slli_epi32(_mm512_and_si512(index, _mm512_set1_epi32(7)), 5);
  return {super_block, _mm512_add_epi32(_mm512_add_epi32(super_block, sub_block),
                                        _mm512_set1_epi32(offsetof(BlockQ8_K, qs)))};
}

// The quants of the lanes in `lanes` (the rest zero) into the group's 8
// vectors, and the negated per-lane sums of all of them and of the first
// 4 (each lane's first 16 quants) into the group.
void gather_quants(const uint8_t* first_block, const LaneOffsets& offsets, __mmask16 lanes,
                   uint8_t* group) {
  const __m512i ones = _mm512_set1_epi8(1);
  __m512i sum = _mm512_setzero_si512();
  __m512i half_sum = _mm512_setzero_si512();
  for (int j = 0; j < 8; ++j) {
    const __m512i q = _mm512_mask_i32gather_epi32(
        _mm512_setzero_si512(), lanes, _mm512_add_epi32(offsets.quants, _mm512_set1_epi32(4 * j)),
        first_block, 1);
    _mm512_storeu_si512(group + 128 + j * 64, q);
    sum = _mm512_dpbusd_epi32(sum, ones, q);
    if (j == 3) half_sum = sum;
  }
  _mm512_storeu_si512(group + 64, _mm512_sub_epi32(_mm512_setzero_si512(), sum));
  _mm512_storeu_si512(group + kActivationHalfSumsOffset,
                      _mm512_sub_epi32(_mm512_setzero_si512(), half_sum));
}

__m512 gather_q8_0_scales(const uint8_t* first_block, const LaneOffsets& offsets, __mmask16 lanes) {
  // Each gathered word holds the F16 scale in its low half.
  const __m512i words =
      _mm512_mask_i32gather_epi32(_mm512_setzero_si512(), lanes, offsets.scale, first_block, 1);
  return _mm512_cvtph_ps(_mm512_cvtepi32_epi16(words));
}

__m512 gather_q8_k_scales(const uint8_t* first_block, const LaneOffsets& offsets, __mmask16 lanes) {
  return _mm512_mask_i32gather_ps(_mm512_setzero_ps(), lanes, offsets.scale, first_block, 1);
}

}  // namespace

void avx512::interleave_activation_row(ElementType packed_type, const void* row, int64_t cols,
                                       void* dst) {
  const bool q8_k = packed_type == ElementType::kQ8_K;
  const LaneOffsets offsets = q8_k ? q8_k_lanes() : q8_0_lanes();
  // Bytes from one group's first block to the next's.
  const size_t group_stride = q8_k ? 2 * sizeof(BlockQ8_K) : kGroupBlocks * sizeof(BlockQ8_0);
  const int64_t n_blocks = cols / kQK;
  const auto* src = static_cast<const uint8_t*>(row);
  auto* out = static_cast<uint8_t*>(dst);
  for (int64_t g = 0; g < interleaved_groups(cols); ++g, out += kActivationGroupBytes) {
    const int64_t blocks = std::min<int64_t>(kGroupBlocks, n_blocks - g * kGroupBlocks);
    const auto lanes = static_cast<__mmask16>((1u << blocks) - 1);
    const uint8_t* first_block = src + g * group_stride;
    const __m512 scales = q8_k ? gather_q8_k_scales(first_block, offsets, lanes)
                               : gather_q8_0_scales(first_block, offsets, lanes);
    _mm512_storeu_ps(out, scales);
    gather_quants(first_block, offsets, lanes, out);
  }
}

}  // namespace ingot::kernels
