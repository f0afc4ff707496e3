#pragma once
// The AArch64 path's matmul kernels, one file per family;
// kernel_table_neon.cpp maps element types to them.

#include "kernels/dispatch.h"

namespace ingot::kernels {

// The 32-element block types' kernels (Q4_0, Q4_1, Q5_0, Q5_1, Q8_0,
// IQ4_NL, MXFP4), or nullptr for another type: with widening multiplies,
// with SDOT (only where the processor has DotProd) and with SMMLA (only
// where it also has I8MM).
TileKernel q8_0_family_tile_neon(ElementType weight_type);
TileKernel q8_0_family_tile_dotprod(ElementType weight_type);
TileKernel q8_0_family_tile_i8mm(ElementType weight_type);

// The super-block types' kernels (Q2_K, Q3_K, Q4_K, Q5_K, Q6_K, IQ4_XS),
// or nullptr for another type: with widening multiplies, and with SDOT.
TileKernel k_quants_tile_neon(ElementType weight_type);
TileKernel k_quants_tile_dotprod(ElementType weight_type);

void f16_tile_neon(const WeightMatrix& w, const PackedActivations& x, TileRange range, float* y,
                   int64_t y_stride);
void bf16_tile_neon(const WeightMatrix& w, const PackedActivations& x, TileRange range, float* y,
                    int64_t y_stride);
void f32_tile_neon(const WeightMatrix& w, const PackedActivations& x, TileRange range, float* y,
                   int64_t y_stride);

// The activation packers (Q8_0, Q8_1, F16), bit-identical to the scalar
// ones, or nullptr for another packed type.
void pack_q8_0_neon(const float* x, void* dst, int64_t n);
void pack_q8_1_neon(const float* x, void* dst, int64_t n);
void pack_q8_k_neon(const float* x, void* dst, int64_t n);
void pack_f16_neon(const float* x, void* dst, int64_t n);
PackRowFn neon_pack_row(ElementType packed_type);

}  // namespace ingot::kernels
