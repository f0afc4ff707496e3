#pragma once
// The AVX2 and AVX-VNNI paths' kernels, one file per family, each with
// its list by weight type; matmul_avx2.cpp looks types up in them. For the paths' own files
// and kernel tables alone.

#include "kernels/dispatch.h"
#include "kernels/kv_tiles.h"
#include "kernels/path_lists.h"

namespace ingot::kernels {

namespace avx2 {

// Each family's kernels by weight type, in its own file.
TileList float_tiles();        // matmul_float_avx2.cpp
TileList q8_0_family_tiles();  // Q4_0, Q4_1, Q5_0, Q5_1, Q8_0, IQ4_NL, MXFP4
TileList k_quant_tiles();      // Q4_K, Q5_K, Q6_K
TileList k_low_bit_tiles();    // Q2_K, Q3_K
TileList iq4_xs_tiles();

// Which kernel serves which type (matmul_avx2.cpp); nullptr: none.
TileKernel tile_kernel(ElementType weight_type);
PackRowFn pack_row(ElementType packed_type);
// The kernels over interleaved weights without VNNI
// (matmul_interleaved_avx2.cpp), falling back to the ones above for the
// original blocks, or nullptr where there is none.
TileKernel interleaved_tile_kernel(ElementType weight_type);

void pack_q8_0(const float* x, void* dst, int64_t n);
void pack_q8_1(const float* x, void* dst, int64_t n);
void pack_q8_k(const float* x, void* dst, int64_t n);
void pack_f16(const float* x, void* dst, int64_t n);

// The KV cache's wideners (kernels/kv_tiles.h), or nullptr for a type
// without one here.
WidenKeysFn widen_keys_fn(ElementType type);
WidenValuesFn widen_values_fn(ElementType type);

}  // namespace avx2

namespace avxvnni {

// The same with AVX-VNNI (matmul_interleaved_avxvnni.cpp).
TileKernel interleaved_tile_kernel(ElementType weight_type);

}  // namespace avxvnni

}  // namespace ingot::kernels
