#pragma once
// The AVX-512 path's kernels, one file per family; matmul_avx512.cpp maps
// element types to them.

#include "kernels/dispatch.h"

namespace ingot::kernels {

void q4_0_tile_avx512(const WeightMatrix& w, const PackedActivations& x, TileRange range, float* y,
                      int64_t y_stride);
void q4_1_tile_avx512(const WeightMatrix& w, const PackedActivations& x, TileRange range, float* y,
                      int64_t y_stride);
void q5_1_tile_avx512(const WeightMatrix& w, const PackedActivations& x, TileRange range, float* y,
                      int64_t y_stride);
void iq4_nl_tile_avx512(const WeightMatrix& w, const PackedActivations& x, TileRange range,
                        float* y, int64_t y_stride);
void iq4_xs_tile_avx512(const WeightMatrix& w, const PackedActivations& x, TileRange range,
                        float* y, int64_t y_stride);
void mxfp4_tile_avx512(const WeightMatrix& w, const PackedActivations& x, TileRange range, float* y,
                       int64_t y_stride);
void q5_0_tile_avx512(const WeightMatrix& w, const PackedActivations& x, TileRange range, float* y,
                      int64_t y_stride);
void q8_0_tile_avx512(const WeightMatrix& w, const PackedActivations& x, TileRange range, float* y,
                      int64_t y_stride);
// The same products over interleaved weights and activations (w.interleaved
// and x.interleaved_row non-null). They walk 2 to 4 tokens in micro-tiles of
// this many rows (matmul's work split claims rows in multiples of it).
inline constexpr int kInterleavedSmallBatchRows = 6;
void q4_0_interleaved_tile_avx512(const WeightMatrix& w, const PackedActivations& x,
                                  TileRange range, float* y, int64_t y_stride);
void iq4_nl_interleaved_tile_avx512(const WeightMatrix& w, const PackedActivations& x,
                                    TileRange range, float* y, int64_t y_stride);
void mxfp4_interleaved_tile_avx512(const WeightMatrix& w, const PackedActivations& x,
                                   TileRange range, float* y, int64_t y_stride);
void iq4_xs_interleaved_tile_avx512(const WeightMatrix& w, const PackedActivations& x,
                                    TileRange range, float* y, int64_t y_stride);
void q8_0_interleaved_tile_avx512(const WeightMatrix& w, const PackedActivations& x,
                                  TileRange range, float* y, int64_t y_stride);
void q4_k_interleaved_tile_avx512(const WeightMatrix& w, const PackedActivations& x,
                                  TileRange range, float* y, int64_t y_stride);
void q6_k_interleaved_tile_avx512(const WeightMatrix& w, const PackedActivations& x,
                                  TileRange range, float* y, int64_t y_stride);
void q2_k_tile_avx512(const WeightMatrix& w, const PackedActivations& x, TileRange range, float* y,
                      int64_t y_stride);
void q3_k_tile_avx512(const WeightMatrix& w, const PackedActivations& x, TileRange range, float* y,
                      int64_t y_stride);
void q4_k_tile_avx512(const WeightMatrix& w, const PackedActivations& x, TileRange range, float* y,
                      int64_t y_stride);
void q5_k_tile_avx512(const WeightMatrix& w, const PackedActivations& x, TileRange range, float* y,
                      int64_t y_stride);
void q6_k_tile_avx512(const WeightMatrix& w, const PackedActivations& x, TileRange range, float* y,
                      int64_t y_stride);
void f16_tile_avx512(const WeightMatrix& w, const PackedActivations& x, TileRange range, float* y,
                     int64_t y_stride);
void bf16_tile_avx512(const WeightMatrix& w, const PackedActivations& x, TileRange range, float* y,
                      int64_t y_stride);
void f32_tile_avx512(const WeightMatrix& w, const PackedActivations& x, TileRange range, float* y,
                     int64_t y_stride);

// Which kernel serves which type (matmul_avx512.cpp); nullptr: none.
TileKernel avx512_tile_kernel(ElementType weight_type);
PackRowFn avx512_pack_row(ElementType packed_type);

void pack_q8_0_avx512(const float* x, void* dst, int64_t n);
void pack_q8_1_avx512(const float* x, void* dst, int64_t n);
void pack_q8_k_avx512(const float* x, void* dst, int64_t n);
void pack_f16_avx512(const float* x, void* dst, int64_t n);
// interleave_activation_row (kernels/interleave.h), byte for byte.
void interleave_activation_row_avx512(ElementType packed_type, const void* row, int64_t cols,
                                      void* dst);

}  // namespace ingot::kernels
