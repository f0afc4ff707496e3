#pragma once
// Reference quantizers: F32 rows to GGUF block formats with llama.cpp's
// round-to-nearest reference formulas (quantize_row_*_ref, no importance
// matrix), so that a model quantized here has the bytes llama.cpp's
// `llama-quantize` would write without an imatrix.

#include <cstdint>

#include "kernels/element_type.h"

namespace ingot::kernels {

// Whether quantize_row can produce `type`.
bool can_quantize(ElementType type);

// n must be a whole number of blocks of `type`; dst receives
// row_bytes(type, n) bytes. F32, F16 and BF16 are converted (F16/BF16 round
// to nearest even).
void quantize_row(ElementType type, const float* src, void* dst, int64_t n);

}  // namespace ingot::kernels
