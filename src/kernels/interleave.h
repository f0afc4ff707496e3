#pragma once
// Q4_0, IQ4_NL, MXFP4, Q8_0, Q4_K and Q6_K matrices and their Q8_0 or Q8_K activations
// regrouped so that one 64-byte vector holds four quants of each of 16
// consecutive 32-element blocks (Q4_K: sub-blocks): an
// integer dot instruction then sums four products into each block's own
// 32-bit lane, eight such steps finish 16 blocks' dot products, and the
// block scales are applied once per 16 blocks (one float multiply-add for
// 512 products instead of one per 64). The AVX-512 path uses this layout
// when a matrix carries it; the original blocks stay for the other paths.
//
// A group of 16 blocks of weights: 16 F16 scales, then the quants.
//   Q4_0: 4 vectors; lane i of vector k holds bytes 4k..4k+3 of block i's
//         qs, so its low nibbles are elements 4k..4k+3 and its high ones
//         16+4k..16+4k+3.
//   IQ4_NL: as Q4_0 (its nibbles index its table).
//   MXFP4: as Q4_0, but 16 F32 scales (2^(e-127) / 2, E8M0 spans more
//         than F16 does) head the group.
//   IQ4_XS: a group is two super-blocks, lane i being sub-block i of the
//         pair. 4 bytes: the F16 d of each super-block; 16 bytes: the
//         sub-blocks' scales less 32, one signed byte each; then 4 vectors
//         laid out like Q4_0's (IQ4_NL's table).
//   Q8_0: 8 vectors; lane i of vector j holds elements 4j..4j+3 of block
//         i, plus 128 (unsigned, for u8 x s8 dot instructions).
//   Q4_K: a group is two super-blocks, lane i being sub-block i (32
//         elements) of the pair. 8 bytes: the F16 d of each super-block,
//         then the F16 dmin of each; 16 bytes: the sub-blocks' 6-bit
//         scales, one a byte; 16 bytes: their 6-bit mins; then 4 vectors
//         laid out like Q4_0's. Each lane then carries its own scale
//         (d * scale) and min (dmin * min), so the kernel treats a
//         sub-block as Q4_0 treats a block, plus one min term.
//   Q6_K: a group is two super-blocks, lane i being 32-element chunk i of
//         the pair; Q6_K's 16-element sub-blocks are each lane's first
//         half (elements 0-15, the "even" sub-block, against activation
//         vectors 0-3) and second half (16-31, "odd", vectors 4-7), each
//         with its own int8 scale. The values are Q6_K's stored 0..63 (the
//         weight is d * scale * (q - 32)). Each half is 3 vectors A, B, C:
//         byte e of lane i holds the value of element 4k + e of the half
//         in bits 0-5 for k = 0, 1, 2 (A, B, C), and 2 bits of element
//         12 + e's value in bits 6-7 (bits 0-1 in A, 2-3 in B, 4-5 in C):
//         three masks give 3 of the 4 vectors, and 6 operations the fourth.
//         A row holds every group's 384 quant bytes first, then every
//         group's 36-byte header (the F16 d of each super-block, the 16
//         even sub-blocks' scales, the 16 odd ones'), padded to a cache
//         line: so the quant vectors start on cache lines.
// A group of activations (Q8_0, or Q8_K cut into 32-element sub-blocks):
// 16 F32 scales (a Q8_K super-block's d repeated over its 8 lanes), 16
// int32 negated block sums, 8 vectors laid out like Q8_0 weights but signed,
// then 16 int32 negated sums of each block's first 16 quants (Q6_K's
// offset for its even sub-blocks).
// The last group of a row is padded with zero blocks (zero scale, zero quants).

#include <cstddef>
#include <cstdint>

#include "kernels/block_formats.h"
#include "kernels/element_type.h"

namespace ingot::kernels {

inline constexpr int kGroupBlocks = 16;
inline constexpr size_t kQ4KGroupHeaderBytes = 8 + 16 + 16;
inline constexpr size_t kQ4KGroupBytes = kQ4KGroupHeaderBytes + kGroupBlocks * kQK / 2;
inline constexpr size_t kIQ4XSGroupHeaderBytes = 4 + 16;
inline constexpr size_t kQ6KGroupQuantBytes = 2 * 3 * 64;
inline constexpr size_t kQ6KGroupHeaderBytes = 4 + 16 + 16;
inline constexpr size_t kActivationGroupBytes = 16 * 4 + 16 * 4 + 8 * 64 + 16 * 4;
inline constexpr size_t kActivationHalfSumsOffset = 16 * 4 + 16 * 4 + 8 * 64;

// Groups in a row of `cols` columns (of any type: a group is 512 columns).
// Inline: every micro-tile asks.
inline int64_t interleaved_groups(int64_t cols) {
  const int64_t blocks = cols / kQK;
  return (blocks + kGroupBlocks - 1) / kGroupBlocks;
}

// The bytes of a group's header (scales) and quants, and whether a row
// holds every group's quants, then every group's header (its quant vectors
// then start on cache lines), or each group's header before its quants.
// Only Q6_K keeps its headers apart: for Q4_0 and Q8_0 it measured no
// steady gain (docs/performance.md, "Tried and not kept").
struct GroupLayout {
  size_t header_bytes;
  size_t quant_bytes;
  bool headers_apart;
};

constexpr GroupLayout group_layout(ElementType type) {
  constexpr size_t kBlockScaleBytes = kGroupBlocks * sizeof(uint16_t);
  switch (type) {
    case ElementType::kQ4_0:
    case ElementType::kIQ4_NL:
      return {kBlockScaleBytes, kGroupBlocks * kQK / 2, false};
    case ElementType::kMXFP4:
      return {kGroupBlocks * sizeof(float), kGroupBlocks * kQK / 2, false};
    case ElementType::kQ8_0:
      return {kBlockScaleBytes, kGroupBlocks * kQK, false};
    case ElementType::kQ4_K:
      return {kQ4KGroupHeaderBytes, kQ4KGroupBytes - kQ4KGroupHeaderBytes, false};
    case ElementType::kIQ4_XS:
      return {kIQ4XSGroupHeaderBytes, kGroupBlocks * kQK / 2, false};
    case ElementType::kQ6_K:
      return {kQ6KGroupHeaderBytes, kQ6KGroupQuantBytes, true};
    default:  // no interleaved layout
      return {0, 0, false};
  }
}

// Whether `type` has an interleaved layout.
constexpr bool can_interleave(ElementType type) {
  return group_layout(type).quant_bytes > 0;
}

// Where a row's group headers start when they are apart.
inline size_t headers_offset(const GroupLayout& layout, int64_t cols) {
  return static_cast<size_t>(interleaved_groups(cols)) * layout.quant_bytes;
}

// Bytes of one interleaved row of `cols` weights (a whole number of groups).
size_t interleaved_row_bytes(ElementType type, int64_t cols);

// One row of `cols` weights of `type` (can_interleave) into dst.
void interleave_weight_row(ElementType type, const void* src, int64_t cols, void* dst);

// One row of `cols` activations packed as `packed_type` (Q8_0 or Q8_K)
// into dst (interleaved_groups(cols) * kActivationGroupBytes bytes).
void interleave_activation_row(ElementType packed_type, const void* row, int64_t cols, void* dst);

// The kernels over interleaved weights walk 2 to 4 tokens in micro-tiles
// of this many rows (matmul's work split claims rows in multiples of it).
inline constexpr int kInterleavedSmallBatchRows = 6;

}  // namespace ingot::kernels
