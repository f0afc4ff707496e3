#pragma once
// Reference quantizers of the K-quant super-block formats (llama.cpp's
// quantize_row_q{2..6}_K_ref): each 16- or 32-element sub-block gets a
// least-squares scale (and min), then the sub-block scales are themselves
// quantized against one F16 super-block scale. Used through quantize_row.

#include <cstdint>

#include "kernels/block_formats.h"

namespace ingot::kernels {

void quantize_q2_k(const float* x, BlockQ2_K* y, int64_t n_blocks);
void quantize_q3_k(const float* x, BlockQ3_K* y, int64_t n_blocks);
void quantize_q4_k(const float* x, BlockQ4_K* y, int64_t n_blocks);
void quantize_q5_k(const float* x, BlockQ5_K* y, int64_t n_blocks);
void quantize_q6_k(const float* x, BlockQ6_K* y, int64_t n_blocks);

}  // namespace ingot::kernels
