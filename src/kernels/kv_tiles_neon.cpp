// Widening quantized KV tiles to F16 on NEON, eight lanes at a time: along
// the positions for keys (a tile row is one dimension of every position),
// along the dimensions for values. Each lane is F16(F32(scale) * quant),
// rounded to nearest even as the scalar path rounds.
#include <arm_neon.h>

#include "kernels/block_formats.h"
#include "kernels/kv_tiles.h"

namespace ingot::kernels::neon {
namespace {

constexpr int64_t kGroup = kQK;

// Eight products of F16 scales and integer quants, stored as F16.
inline void store_scaled(uint16_t* at, int16x8_t quants, float16x8_t scales) {
  const float32x4_t lo =
      vmulq_f32(vcvt_f32_f16(vget_low_f16(scales)), vcvtq_f32_s32(vmovl_s16(vget_low_s16(quants))));
  const float32x4_t hi =
      vmulq_f32(vcvt_high_f32_f16(scales), vcvtq_f32_s32(vmovl_high_s16(quants)));
  vst1q_u16(at, vreinterpretq_u16_f16(vcvt_high_f16_f32(vcvt_f16_f32(lo), hi)));
}

inline float16x8_t load_scales(const uint16_t* at) {
  return vreinterpretq_f16_u16(vld1q_u16(at));
}

inline float16x8_t broadcast_scale(uint16_t d) {
  return vreinterpretq_f16_u16(vdupq_n_u16(d));
}

// 16 quants widened to 16 bits, in two halves of eight.
inline void store_16(uint16_t* at, int8x16_t quants, float16x8_t scales_lo, float16x8_t scales_hi) {
  store_scaled(at, vmovl_s8(vget_low_s8(quants)), scales_lo);
  store_scaled(at + 8, vmovl_high_s8(quants), scales_hi);
}

// A Q4_0 byte row's low and high nibbles, less 8.
inline int8x16_t low_quants(uint8x16_t bytes) {
  return vsubq_s8(vreinterpretq_s8_u8(vandq_u8(bytes, vdupq_n_u8(0x0f))), vdupq_n_s8(8));
}

inline int8x16_t high_quants(uint8x16_t bytes) {
  return vsubq_s8(vreinterpretq_s8_u8(vshrq_n_u8(bytes, 4)), vdupq_n_s8(8));
}

void widen_keys_q8_0(const std::byte* tile, int64_t head_dim, int64_t block_size, uint16_t* out) {
  const auto* quants = reinterpret_cast<const int8_t*>(tile);
  const auto* scales = reinterpret_cast<const uint16_t*>(tile + head_dim * block_size);
  for (int64_t d = 0; d < head_dim; ++d) {
    const uint16_t* scale = scales + d / kGroup * block_size;
    const int8_t* row = quants + d * block_size;
    for (int64_t j = 0; j < block_size; j += 16) {
      store_16(out + d * block_size + j, vld1q_s8(row + j), load_scales(scale + j),
               load_scales(scale + j + 8));
    }
  }
}

// A row of block_size / 2 bytes holds positions i (low nibble) and
// i + block_size / 2 (high nibble).
void widen_keys_q4_0(const std::byte* tile, int64_t head_dim, int64_t block_size, uint16_t* out) {
  const auto* quants = reinterpret_cast<const uint8_t*>(tile);
  const int64_t half = block_size / 2;
  const auto* scales = reinterpret_cast<const uint16_t*>(tile + head_dim * half);
  for (int64_t d = 0; d < head_dim; ++d) {
    const uint16_t* scale = scales + d / kGroup * block_size;
    const uint8_t* row = quants + d * half;
    uint16_t* to = out + d * block_size;
    for (int64_t i = 0; i < half; i += 16) {
      const uint8x16_t bytes = vld1q_u8(row + i);
      store_16(to + i, low_quants(bytes), load_scales(scale + i), load_scales(scale + i + 8));
      store_16(to + half + i, high_quants(bytes), load_scales(scale + half + i),
               load_scales(scale + half + i + 8));
    }
  }
}

void widen_values_q8_0(const std::byte* tile, int64_t head_dim, int64_t first, int64_t count,
                       uint16_t* out) {
  const auto* blocks = reinterpret_cast<const BlockQ8_0*>(tile);
  const int64_t per_row = head_dim / kGroup;
  for (int64_t r = first; r < first + count; ++r) {
    for (int64_t g = 0; g < per_row; ++g) {
      const BlockQ8_0& block = blocks[r * per_row + g];
      const float16x8_t scale = broadcast_scale(block.d);
      uint16_t* to = out + r * head_dim + g * kGroup;
      store_16(to, vld1q_s8(block.qs), scale, scale);
      store_16(to + 16, vld1q_s8(block.qs + 16), scale, scale);
    }
  }
}

void widen_values_q4_0(const std::byte* tile, int64_t head_dim, int64_t first, int64_t count,
                       uint16_t* out) {
  const auto* blocks = reinterpret_cast<const BlockQ4_0*>(tile);
  const int64_t per_row = head_dim / kGroup;
  for (int64_t r = first; r < first + count; ++r) {
    for (int64_t g = 0; g < per_row; ++g) {
      const BlockQ4_0& block = blocks[r * per_row + g];
      const float16x8_t scale = broadcast_scale(block.d);
      const uint8x16_t bytes = vld1q_u8(block.qs);
      uint16_t* to = out + r * head_dim + g * kGroup;
      store_16(to, low_quants(bytes), scale, scale);
      store_16(to + 16, high_quants(bytes), scale, scale);
    }
  }
}

}  // namespace

// Tiles of whole vectors only: a block size that is a multiple of 32.
WidenKeysFn widen_keys_fn(ElementType type) {
  if (type == ElementType::kQ8_0) return widen_keys_q8_0;
  if (type == ElementType::kQ4_0) return widen_keys_q4_0;
  return nullptr;
}

WidenValuesFn widen_values_fn(ElementType type) {
  if (type == ElementType::kQ8_0) return widen_values_q8_0;
  if (type == ElementType::kQ4_0) return widen_values_q4_0;
  return nullptr;
}

}  // namespace ingot::kernels::neon
