#include "kernels/kv_tiles.h"

#include <cstring>

#include "kernels/block_formats.h"
#include "kernels/dequantize.h"
#include "kernels/half.h"
#include "kernels/kernel_table.h"
#include "kernels/quantize.h"

namespace ingot::kernels {
namespace {

constexpr int64_t kGroup = kQK;  // dimensions sharing one scale

// Quants of a quantized key tile take this many bytes per dimension.
int64_t key_quant_bytes(ElementType type, int64_t block_size) {
  return type == ElementType::kQ8_0 ? block_size : block_size / 2;
}

uint16_t* key_scales(std::byte* tile, ElementType type, int64_t head_dim, int64_t block_size) {
  return reinterpret_cast<uint16_t*>(tile + head_dim * key_quant_bytes(type, block_size));
}

const uint16_t* key_scales(const std::byte* tile, ElementType type, int64_t head_dim,
                           int64_t block_size) {
  return reinterpret_cast<const uint16_t*>(tile + head_dim * key_quant_bytes(type, block_size));
}

// The 4-bit quant of element `i` of a Q4_0 block (llama.cpp's order: the
// low nibbles hold the first half).
int quant_of(const BlockQ4_0& block, int64_t i) {
  return i < kQK / 2 ? block.qs[i] & 0x0F : block.qs[i - kQK / 2] >> 4;
}

void store_key_q8_0(const float* key, int64_t head_dim, int64_t block_size, int64_t cell,
                    std::byte* tile) {
  auto* quants = reinterpret_cast<int8_t*>(tile);
  uint16_t* scales = key_scales(tile, ElementType::kQ8_0, head_dim, block_size);
  for (int64_t g = 0; g < head_dim / kGroup; ++g) {
    BlockQ8_0 block;
    quantize_row(ElementType::kQ8_0, key + g * kGroup, &block, kGroup);
    scales[g * block_size + cell] = block.d;
    for (int64_t i = 0; i < kGroup; ++i) quants[(g * kGroup + i) * block_size + cell] = block.qs[i];
  }
}

void store_key_q4_0(const float* key, int64_t head_dim, int64_t block_size, int64_t cell,
                    std::byte* tile) {
  auto* quants = reinterpret_cast<uint8_t*>(tile);
  uint16_t* scales = key_scales(tile, ElementType::kQ4_0, head_dim, block_size);
  const int64_t half = block_size / 2;
  const int64_t column = cell % half;
  const int shift = cell < half ? 0 : 4;
  for (int64_t g = 0; g < head_dim / kGroup; ++g) {
    BlockQ4_0 block;
    quantize_row(ElementType::kQ4_0, key + g * kGroup, &block, kGroup);
    scales[g * block_size + cell] = block.d;
    for (int64_t i = 0; i < kGroup; ++i) {
      uint8_t& byte = quants[(g * kGroup + i) * half + column];
      byte = uint8_t((byte & (0xF0 >> shift)) | (quant_of(block, i) << shift));
    }
  }
}

}  // namespace

bool kv_type_supported(ElementType type) {
  return type == ElementType::kF16 || type == ElementType::kQ8_0 || type == ElementType::kQ4_0;
}

bool kv_head_dim_supported(ElementType type, int64_t head_dim) {
  return type == ElementType::kF16 || head_dim % kGroup == 0;
}

size_t kv_tile_bytes(ElementType type, int64_t head_dim, int64_t block_size) {
  if (type == ElementType::kF16) return size_t(head_dim * block_size) * sizeof(uint16_t);
  const size_t scales = size_t(head_dim / kGroup * block_size) * sizeof(uint16_t);
  return size_t(head_dim * key_quant_bytes(type, block_size)) + scales;
}

void store_key(ElementType type, const float* key, int64_t head_dim, int64_t block_size,
               int64_t cell, std::byte* tile) {
  if (type == ElementType::kQ8_0) return store_key_q8_0(key, head_dim, block_size, cell, tile);
  if (type == ElementType::kQ4_0) return store_key_q4_0(key, head_dim, block_size, cell, tile);
  auto* halves = reinterpret_cast<uint16_t*>(tile);
  for (int64_t d = 0; d < head_dim; ++d) halves[d * block_size + cell] = f32_to_f16(key[d]);
}

void store_value(ElementType type, const float* value, int64_t head_dim, int64_t cell,
                 std::byte* tile) {
  const size_t row = *row_bytes(type, head_dim);
  quantize_row(type, value, tile + size_t(cell) * row, head_dim);
}

namespace scalar {
namespace {

void widen_keys_q8_0(const std::byte* tile, int64_t head_dim, int64_t block_size, uint16_t* out) {
  const auto* quants = reinterpret_cast<const int8_t*>(tile);
  const uint16_t* scales = key_scales(tile, ElementType::kQ8_0, head_dim, block_size);
  for (int64_t d = 0; d < head_dim; ++d) {
    const uint16_t* scale = scales + d / kGroup * block_size;
    for (int64_t j = 0; j < block_size; ++j) {
      out[d * block_size + j] = f32_to_f16(f16_to_f32(scale[j]) * quants[d * block_size + j]);
    }
  }
}

void widen_keys_q4_0(const std::byte* tile, int64_t head_dim, int64_t block_size, uint16_t* out) {
  const auto* quants = reinterpret_cast<const uint8_t*>(tile);
  const uint16_t* scales = key_scales(tile, ElementType::kQ4_0, head_dim, block_size);
  const int64_t half = block_size / 2;
  for (int64_t d = 0; d < head_dim; ++d) {
    const uint16_t* scale = scales + d / kGroup * block_size;
    for (int64_t j = 0; j < block_size; ++j) {
      const uint8_t byte = quants[d * half + j % half];
      const int quant = (j < half ? byte & 0x0F : byte >> 4) - 8;
      out[d * block_size + j] = f32_to_f16(f16_to_f32(scale[j]) * float(quant));
    }
  }
}

template <ElementType kType>
void widen_values(const std::byte* tile, int64_t head_dim, int64_t first, int64_t count,
                  uint16_t* out) {
  const size_t group_bytes = *row_bytes(kType, kGroup);
  const size_t row = *row_bytes(kType, head_dim);
  float widened[kGroup];
  for (int64_t r = first; r < first + count; ++r) {
    for (int64_t g = 0; g < head_dim / kGroup; ++g) {
      dequantize_row(kType, tile + size_t(r) * row + size_t(g) * group_bytes, widened, kGroup);
      for (int64_t i = 0; i < kGroup; ++i)
        out[r * head_dim + g * kGroup + i] = f32_to_f16(widened[i]);
    }
  }
}

}  // namespace

WidenKeysFn widen_keys_fn(ElementType type) {
  return type == ElementType::kQ8_0 ? widen_keys_q8_0 : widen_keys_q4_0;
}

WidenValuesFn widen_values_fn(ElementType type) {
  return type == ElementType::kQ8_0 ? widen_values<ElementType::kQ8_0>
                                    : widen_values<ElementType::kQ4_0>;
}

}  // namespace scalar

WidenKeysFn widen_keys_fn(ElementType type) {
  return active_kernels().widen_keys(type);
}

WidenValuesFn widen_values_fn(ElementType type) {
  return active_kernels().widen_values(type);
}

}  // namespace ingot::kernels
