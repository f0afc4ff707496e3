#pragma once
// How activations are packed for each weight type's dot product, and the
// scalar reference packers. The packed formats and their rounding follow
// what llama.cpp does on x86, so that integer dot products see the same
// activation values as the golden logits did:
//   Q4_0, Q5_0, Q8_0 -> Q8_0     Q4_1, Q5_1 -> Q8_1
//   K-quants         -> Q8_K     F16 -> F16, BF16 -> BF16, F32 -> F32

#include <cstdint>

#include "kernels/element_type.h"

namespace ingot::kernels {

ElementType dot_operand_type(ElementType weight_type);

// Packs a row of n activations (a whole number of packed_type blocks).
// Q8_0/Q8_1 use d = amax / 127 and q = round_half_even(x * (127 / amax)),
// like ggml's AVX quantize_row_q8_0/q8_1 (not the roundf of the file
// quantizer); Q8_K uses the reference Q8_K quantizer, as ggml does.
void pack_activation_row(ElementType packed_type, const float* x, void* dst, int64_t n);

}  // namespace ingot::kernels
