#pragma once
// Rounding helpers shared by the quantizers, matching llama.cpp's choices.

#include <bit>
#include <cstdint>

namespace ingot::kernels {

// Round to nearest, ties to even, for |x| < 2^22: adding 1.5 * 2^23 makes
// the FPU do the rounding, and the integer sits in the low mantissa bits.
// llama.cpp's K-quant quantizers round this way (not like roundf).
inline int nearest_int(float x) {
  float shifted = x + 12582912.0f;
  return static_cast<int>(std::bit_cast<uint32_t>(shifted) & 0x007fffff) - 0x00400000;
}

}  // namespace ingot::kernels
