#pragma once
// Scalar reference dot products: one weight row (any supported type) with
// one activation row packed as dot_operand_type(weight type). Integer
// products are summed per block and scaled once per block, as llama.cpp's
// ggml_vec_dot_* do; every SIMD kernel is tested against these.

#include <cstdint>

#include "kernels/element_type.h"

namespace ingot::kernels {

float vec_dot(ElementType weight_type, const void* w, const void* x_packed, int64_t n);

}  // namespace ingot::kernels
