#pragma once
// The AVX2 path's kernels, one file per family; matmul_avx2.cpp maps
// element types to them.

#include "kernels/dispatch.h"

namespace ingot::kernels {

void q4_0_tile_avx2(const WeightMatrix& w, const PackedActivations& x, TileRange range, float* y,
                    int64_t y_stride);
void q4_1_tile_avx2(const WeightMatrix& w, const PackedActivations& x, TileRange range, float* y,
                    int64_t y_stride);
void q5_0_tile_avx2(const WeightMatrix& w, const PackedActivations& x, TileRange range, float* y,
                    int64_t y_stride);
void q5_1_tile_avx2(const WeightMatrix& w, const PackedActivations& x, TileRange range, float* y,
                    int64_t y_stride);
void iq4_nl_tile_avx2(const WeightMatrix& w, const PackedActivations& x, TileRange range, float* y,
                      int64_t y_stride);
void iq4_xs_tile_avx2(const WeightMatrix& w, const PackedActivations& x, TileRange range, float* y,
                      int64_t y_stride);
void mxfp4_tile_avx2(const WeightMatrix& w, const PackedActivations& x, TileRange range, float* y,
                     int64_t y_stride);
void q8_0_tile_avx2(const WeightMatrix& w, const PackedActivations& x, TileRange range, float* y,
                    int64_t y_stride);
void q2_k_tile_avx2(const WeightMatrix& w, const PackedActivations& x, TileRange range, float* y,
                    int64_t y_stride);
void q3_k_tile_avx2(const WeightMatrix& w, const PackedActivations& x, TileRange range, float* y,
                    int64_t y_stride);
void q5_k_tile_avx2(const WeightMatrix& w, const PackedActivations& x, TileRange range, float* y,
                    int64_t y_stride);
void q4_k_tile_avx2(const WeightMatrix& w, const PackedActivations& x, TileRange range, float* y,
                    int64_t y_stride);
void q6_k_tile_avx2(const WeightMatrix& w, const PackedActivations& x, TileRange range, float* y,
                    int64_t y_stride);
void f16_tile_avx2(const WeightMatrix& w, const PackedActivations& x, TileRange range, float* y,
                   int64_t y_stride);
void bf16_tile_avx2(const WeightMatrix& w, const PackedActivations& x, TileRange range, float* y,
                    int64_t y_stride);
void f32_tile_avx2(const WeightMatrix& w, const PackedActivations& x, TileRange range, float* y,
                   int64_t y_stride);

// Which kernel serves which type (matmul_avx2.cpp); nullptr: none.
TileKernel avx2_tile_kernel(ElementType weight_type);
PackRowFn avx2_pack_row(ElementType packed_type);
// The kernels over interleaved weights (falling back to the ones above for
// the original blocks), or nullptr where there is none: without VNNI
// (matmul_interleaved_avx2.cpp) and with AVX-VNNI (..._avxvnni.cpp).
TileKernel avx2_interleaved_tile_kernel(ElementType weight_type);
TileKernel avxvnni_interleaved_tile_kernel(ElementType weight_type);

void pack_q8_0_avx2(const float* x, void* dst, int64_t n);
void pack_q8_1_avx2(const float* x, void* dst, int64_t n);
void pack_q8_k_avx2(const float* x, void* dst, int64_t n);
void pack_f16_avx2(const float* x, void* dst, int64_t n);

}  // namespace ingot::kernels
