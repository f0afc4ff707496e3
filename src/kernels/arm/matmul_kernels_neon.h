#pragma once
// The AArch64 path's kernels, one file per family, for its own files
// and its kernel table (kernel_table_neon.cpp) alone.

#include "kernels/dispatch.h"
#include "kernels/kv_tiles.h"
#include "kernels/path_lists.h"

namespace ingot::kernels {

namespace neon {

// The 32-element block types' kernels (Q4_0, Q4_1, Q5_0, Q5_1, Q8_0,
// IQ4_NL, MXFP4), or nullptr for another type, with widening multiplies;
// with SDOT and SMMLA below.
TileKernel q8_0_family_tile(ElementType weight_type);
// The super-block types' kernels (Q2_K, Q3_K, Q4_K, Q5_K, Q6_K, IQ4_XS),
// or nullptr for another type, with widening multiplies.
TileKernel k_quants_tile(ElementType weight_type);

// The float types' kernels (matmul_float_neon.cpp).
TileList float_tiles();

// The activation packers (Q8_0, Q8_1, Q8_K, F16), bit-identical to the
// scalar ones, or nullptr for another packed type.
void pack_q8_0(const float* x, void* dst, int64_t n);
void pack_q8_1(const float* x, void* dst, int64_t n);
void pack_q8_k(const float* x, void* dst, int64_t n);
void pack_f16(const float* x, void* dst, int64_t n);
PackRowFn pack_row(ElementType packed_type);

// The KV cache's wideners (kernels/kv_tiles.h), or nullptr for a type
// without one here.
WidenKeysFn widen_keys_fn(ElementType type);
WidenValuesFn widen_values_fn(ElementType type);

}  // namespace neon

// With SDOT, only where the processor has DotProd.
namespace dotprod {
TileKernel q8_0_family_tile(ElementType weight_type);
TileKernel k_quants_tile(ElementType weight_type);
}  // namespace dotprod

// With SMMLA, only where it also has I8MM.
namespace i8mm {
TileKernel q8_0_family_tile(ElementType weight_type);
}  // namespace i8mm

}  // namespace ingot::kernels
