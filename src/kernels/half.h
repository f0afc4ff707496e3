#pragma once
// IEEE binary16 (F16) and bfloat16 (BF16) conversions to and from F32, done
// with integer bit manipulation so that they are exact on every CPU:
// subnormals, infinities and NaNs survive, and F32 -> F16 rounds to nearest
// even like the F16C instruction vcvtps2ph (and hence like ggml on x86).

#include <bit>
#include <cstdint>

namespace ingot::kernels {

inline float f16_to_f32(uint16_t h) {
  const uint32_t sign = static_cast<uint32_t>(h & 0x8000) << 16;
  const uint32_t exponent = (h >> 10) & 0x1f;
  uint32_t mantissa = h & 0x3ff;
  if (exponent == 0x1f) {  // inf or NaN: keep the payload
    return std::bit_cast<float>(sign | 0x7f800000u | (mantissa << 13));
  }
  if (exponent != 0) {  // normal: rebias 15 -> 127
    return std::bit_cast<float>(sign | ((exponent + 112) << 23) | (mantissa << 13));
  }
  if (mantissa == 0) return std::bit_cast<float>(sign);
  // Subnormal: value = mantissa * 2^-24, exactly representable in F32.
  float magnitude = static_cast<float>(mantissa) * 0x1p-24f;
  return std::bit_cast<float>(sign | std::bit_cast<uint32_t>(magnitude));
}

inline uint16_t f32_to_f16(float f) {
  const uint32_t bits = std::bit_cast<uint32_t>(f);
  const uint16_t sign = static_cast<uint16_t>((bits >> 16) & 0x8000);
  const uint32_t abs_bits = bits & 0x7fffffffu;
  if (abs_bits > 0x7f800000u) {  // NaN: quiet it, keep the top payload bits
    return static_cast<uint16_t>(sign | 0x7e00 | ((abs_bits >> 13) & 0x3ff));
  }
  if (abs_bits >= 0x477ff000u) {  // rounds to >= 65520: overflow to inf
    return static_cast<uint16_t>(sign | 0x7c00);
  }
  if (abs_bits < 0x38800000u) {  // below 2^-14: subnormal or zero in F16
    // Adding 0.5 makes the FPU round the value to a multiple of 2^-24
    // (to nearest even), leaving the F16 mantissa in the low bits.
    float shifted = std::bit_cast<float>(abs_bits) + 0.5f;
    return static_cast<uint16_t>(sign | (std::bit_cast<uint32_t>(shifted) - 0x3f000000u));
  }
  // Normal: rebias, then round the 13 dropped bits to nearest even. A carry
  // out of the mantissa correctly bumps the exponent.
  uint32_t rebiased = abs_bits - (112u << 23);
  uint32_t round_bit = (rebiased >> 13) & 1;
  rebiased += 0xfff + round_bit;
  return static_cast<uint16_t>(sign | (rebiased >> 13));
}

inline float bf16_to_f32(uint16_t h) {
  return std::bit_cast<float>(static_cast<uint32_t>(h) << 16);
}

// Round to nearest even; NaNs stay NaN (quieted) instead of rounding to inf.
inline uint16_t f32_to_bf16(float f) {
  uint32_t bits = std::bit_cast<uint32_t>(f);
  if ((bits & 0x7fffffffu) > 0x7f800000u) return static_cast<uint16_t>((bits >> 16) | 0x40);
  bits += 0x7fff + ((bits >> 16) & 1);
  return static_cast<uint16_t>(bits >> 16);
}

}  // namespace ingot::kernels
