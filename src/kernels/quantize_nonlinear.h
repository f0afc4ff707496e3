#pragma once
// Quantizing to the 4-bit table types (IQ4_NL, IQ4_XS, MXFP4), for
// ingot-synth's test models and the kernels' tests: each value takes the
// table entry nearest to it at a scale set by its block's extreme (a
// plain choice; llama.cpp searches scales further, but any valid block
// reads back the same in both programs).

#include <cstdint>

#include "kernels/block_formats.h"

namespace ingot::kernels {

void quantize_iq4_nl(const float* x, BlockIQ4_NL* y, int64_t nb);
void quantize_iq4_xs(const float* x, BlockIQ4_XS* y, int64_t nb);
void quantize_mxfp4(const float* x, BlockMXFP4* y, int64_t nb);

}  // namespace ingot::kernels
