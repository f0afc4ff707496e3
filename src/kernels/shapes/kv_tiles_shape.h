#pragma once
// Widening quantized KV tiles (kernels/kv_tiles.h) to F16, written once for
// every vector width: along the positions for keys (a tile row is one
// dimension of every position), along the dimensions for values. Each
// lane is F16(F32(scale) * quant), rounded to nearest even as the scalar
// path rounds. V gives kLanes (which divides 16), Q (kLanes quants widened
// for the product), S (kLanes F16 scales) and:
//   i8s(p)                 kLanes signed bytes
//   low_nibbles_less_8(p)  the low nibbles of kLanes bytes, less 8
//   high_nibbles_less_8(p) their high nibbles, less 8
//   scales(p), scale(d)    kLanes F16 scales, or one broadcast
//   store_scaled(to, q, s) the kLanes products, as F16
// Include only from the SIMD files that define V; tiles are whole vectors
// only (block sizes are multiples of 32).

#include <cstddef>
#include <cstdint>

#include "kernels/block_formats.h"
#include "kernels/kv_tiles.h"

namespace ingot::kernels {
namespace {

template <class V>
void widen_keys_q8_0_lanes(const std::byte* tile, int64_t head_dim, int64_t block_size,
                           uint16_t* out) {
  const auto* quants = reinterpret_cast<const int8_t*>(tile);
  const auto* scales = reinterpret_cast<const uint16_t*>(tile + head_dim * block_size);
  for (int64_t d = 0; d < head_dim; ++d) {
    const uint16_t* scale = scales + d / kQK * block_size;
    const int8_t* row = quants + d * block_size;
    for (int64_t j = 0; j < block_size; j += V::kLanes) {
      V::store_scaled(out + d * block_size + j, V::i8s(row + j), V::scales(scale + j));
    }
  }
}

// A row of block_size / 2 bytes holds positions i (low nibble) and
// i + block_size / 2 (high nibble).
template <class V>
void widen_keys_q4_0_lanes(const std::byte* tile, int64_t head_dim, int64_t block_size,
                           uint16_t* out) {
  const auto* quants = reinterpret_cast<const uint8_t*>(tile);
  const int64_t half = block_size / 2;
  const auto* scales = reinterpret_cast<const uint16_t*>(tile + head_dim * half);
  for (int64_t d = 0; d < head_dim; ++d) {
    const uint16_t* scale = scales + d / kQK * block_size;
    const uint8_t* row = quants + d * half;
    uint16_t* to = out + d * block_size;
    for (int64_t i = 0; i < half; i += V::kLanes) {
      V::store_scaled(to + i, V::low_nibbles_less_8(row + i), V::scales(scale + i));
      V::store_scaled(to + half + i, V::high_nibbles_less_8(row + i), V::scales(scale + half + i));
    }
  }
}

template <class V>
void widen_values_q8_0_lanes(const std::byte* tile, int64_t head_dim, int64_t first, int64_t count,
                             uint16_t* out) {
  const auto* blocks = reinterpret_cast<const BlockQ8_0*>(tile);
  const int64_t per_row = head_dim / kQK;
  for (int64_t r = first; r < first + count; ++r) {
    for (int64_t g = 0; g < per_row; ++g) {
      const BlockQ8_0& block = blocks[r * per_row + g];
      const typename V::S scale = V::scale(block.d);
      uint16_t* to = out + r * head_dim + g * kQK;
      for (int64_t i = 0; i < kQK; i += V::kLanes) {
        V::store_scaled(to + i, V::i8s(block.qs + i), scale);
      }
    }
  }
}

// A block's byte i holds element i (low nibble) and i + 16 (high nibble).
template <class V>
void widen_values_q4_0_lanes(const std::byte* tile, int64_t head_dim, int64_t first, int64_t count,
                             uint16_t* out) {
  const auto* blocks = reinterpret_cast<const BlockQ4_0*>(tile);
  const int64_t per_row = head_dim / kQK;
  for (int64_t r = first; r < first + count; ++r) {
    for (int64_t g = 0; g < per_row; ++g) {
      const BlockQ4_0& block = blocks[r * per_row + g];
      const typename V::S scale = V::scale(block.d);
      uint16_t* to = out + r * head_dim + g * kQK;
      for (int64_t i = 0; i < kQK / 2; i += V::kLanes) {
        V::store_scaled(to + i, V::low_nibbles_less_8(block.qs + i), scale);
        V::store_scaled(to + kQK / 2 + i, V::high_nibbles_less_8(block.qs + i), scale);
      }
    }
  }
}

template <class V>
WidenKeysFn widen_keys_lanes(ElementType type) {
  if (type == ElementType::kQ8_0) return widen_keys_q8_0_lanes<V>;
  if (type == ElementType::kQ4_0) return widen_keys_q4_0_lanes<V>;
  return nullptr;
}

template <class V>
WidenValuesFn widen_values_lanes(ElementType type) {
  if (type == ElementType::kQ8_0) return widen_values_q8_0_lanes<V>;
  if (type == ElementType::kQ4_0) return widen_values_q4_0_lanes<V>;
  return nullptr;
}

}  // namespace
}  // namespace ingot::kernels
