#pragma once
// The AVX-512 path's kernels, one file per family; matmul_avx512.cpp maps
// element types to them.

#include "kernels/dispatch.h"
#include "kernels/kv_tiles.h"

namespace ingot::kernels {

namespace avx512 {

void q4_0_tile(const WeightMatrix& w, const PackedActivations& x, TileRange range, float* y,
               int64_t y_stride);
void q4_1_tile(const WeightMatrix& w, const PackedActivations& x, TileRange range, float* y,
               int64_t y_stride);
void q5_1_tile(const WeightMatrix& w, const PackedActivations& x, TileRange range, float* y,
               int64_t y_stride);
void iq4_nl_tile(const WeightMatrix& w, const PackedActivations& x, TileRange range, float* y,
                 int64_t y_stride);
void iq4_xs_tile(const WeightMatrix& w, const PackedActivations& x, TileRange range, float* y,
                 int64_t y_stride);
void mxfp4_tile(const WeightMatrix& w, const PackedActivations& x, TileRange range, float* y,
                int64_t y_stride);
void q5_0_tile(const WeightMatrix& w, const PackedActivations& x, TileRange range, float* y,
               int64_t y_stride);
void q8_0_tile(const WeightMatrix& w, const PackedActivations& x, TileRange range, float* y,
               int64_t y_stride);
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
void q2_k_tile(const WeightMatrix& w, const PackedActivations& x, TileRange range, float* y,
               int64_t y_stride);
void q3_k_tile(const WeightMatrix& w, const PackedActivations& x, TileRange range, float* y,
               int64_t y_stride);
void q4_k_tile(const WeightMatrix& w, const PackedActivations& x, TileRange range, float* y,
               int64_t y_stride);
void q5_k_tile(const WeightMatrix& w, const PackedActivations& x, TileRange range, float* y,
               int64_t y_stride);
void q6_k_tile(const WeightMatrix& w, const PackedActivations& x, TileRange range, float* y,
               int64_t y_stride);
void f16_tile(const WeightMatrix& w, const PackedActivations& x, TileRange range, float* y,
              int64_t y_stride);
void bf16_tile(const WeightMatrix& w, const PackedActivations& x, TileRange range, float* y,
               int64_t y_stride);
void f32_tile(const WeightMatrix& w, const PackedActivations& x, TileRange range, float* y,
              int64_t y_stride);

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

}  // namespace avx512

}  // namespace ingot::kernels
