#pragma once
// F32 values of all 65536 F16 bit patterns. Kernels read a block's F16
// scale through it with plain loads, keeping the shuffle port free for
// the quant unpacking.

#include <cstdint>

namespace ingot::kernels {

const float* f16_table();

}  // namespace ingot::kernels
