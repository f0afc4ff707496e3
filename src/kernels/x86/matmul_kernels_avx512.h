#pragma once
// The AVX-512 path's kernels, one file per family, each with its list by
// weight type; matmul_avx512.cpp looks types up in them.

#include "kernels/dispatch.h"
#include "kernels/kv_tiles.h"
#include "kernels/path_lists.h"

namespace ingot::kernels {

namespace avx512 {

// Each family's kernels by weight type, in its own file.
TileList float_tiles();        // matmul_float_avx512.cpp
TileList q8_0_family_tiles();  // Q4_0, Q4_1, Q5_0, Q5_1, Q8_0, IQ4_NL, MXFP4
TileList k_quant_tiles();      // Q4_K, Q5_K, Q6_K
TileList k_low_bit_tiles();    // Q2_K, Q3_K
TileList iq4_xs_tiles();

// The same products over interleaved weights and activations (w.interleaved
// and x.interleaved_row non-null).
void q4_0_interleaved_tile(const WeightMatrix& w, const PackedActivations& x, TileRange range,
                           float* y, int64_t y_stride);
void iq4_nl_interleaved_tile(const WeightMatrix& w, const PackedActivations& x, TileRange range,
                             float* y, int64_t y_stride);
void mxfp4_interleaved_tile(const WeightMatrix& w, const PackedActivations& x, TileRange range,
                            float* y, int64_t y_stride);
void iq4_xs_interleaved_tile(const WeightMatrix& w, const PackedActivations& x, TileRange range,
                             float* y, int64_t y_stride);
void q8_0_interleaved_tile(const WeightMatrix& w, const PackedActivations& x, TileRange range,
                           float* y, int64_t y_stride);
void q4_k_interleaved_tile(const WeightMatrix& w, const PackedActivations& x, TileRange range,
                           float* y, int64_t y_stride);
void q6_k_interleaved_tile(const WeightMatrix& w, const PackedActivations& x, TileRange range,
                           float* y, int64_t y_stride);

// Which kernel serves which type (matmul_avx512.cpp); nullptr: none.
TileKernel tile_kernel(ElementType weight_type);
PackRowFn pack_row(ElementType packed_type);

void pack_q8_0(const float* x, void* dst, int64_t n);
void pack_q8_1(const float* x, void* dst, int64_t n);
void pack_q8_k(const float* x, void* dst, int64_t n);
void pack_f16(const float* x, void* dst, int64_t n);
// interleave_activation_row (kernels/interleave.h), byte for byte.
void interleave_activation_row(ElementType packed_type, const void* row, int64_t cols, void* dst);

// The KV cache's wideners (kernels/kv_tiles.h), or nullptr for a type
// without one here.
WidenKeysFn widen_keys_fn(ElementType type);
WidenValuesFn widen_values_fn(ElementType type);

// The interleaved kernel where the weights and the activations both have
// an interleaved copy, the block kernel otherwise.
template <TileKernel kInterleaved, TileKernel kBlocks>
void interleaved_or_blocks(const WeightMatrix& w, const PackedActivations& x, TileRange range,
                           float* y, int64_t y_stride) {
  if (w.interleaved != nullptr && x.interleaved_row(0) != nullptr)
    return kInterleaved(w, x, range, y, y_stride);
  kBlocks(w, x, range, y, y_stride);
}

}  // namespace avx512

}  // namespace ingot::kernels
