#pragma once
// Scalar reference dequantization: a row of n elements of any supported
// type back to F32, bit-compatible with llama.cpp's dequantize_row_*.

#include <cstdint>

#include "kernels/element_type.h"

namespace ingot::kernels {

// n must be a whole number of the type's blocks and the type supported
// (element_type_info(type).supported); src holds row_bytes(type, n) bytes.
void dequantize_row(ElementType type, const void* src, float* dst, int64_t n);

}  // namespace ingot::kernels
