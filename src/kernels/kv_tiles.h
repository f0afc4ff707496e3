#pragma once
// One KV head's keys or values for one block of positions, in F16, Q8_0
// or Q4_0 (--cache-type-k, --cache-type-v).
//
// A position's key and value are quantized as llama.cpp quantizes them:
// along the head's dimensions, in groups of 32 sharing one F16 scale. The
// tiles keep attention's orders (kernels/ops_attention.h): keys
// dimension-major, values position-major.
//   F16 keys    [head_dim][block_size] halves
//   Q8_0 keys   [head_dim][block_size] int8 quants, then
//               [head_dim / 32][block_size] F16 scales
//   Q4_0 keys   [head_dim][block_size / 2] bytes, position i in the low
//               nibble and i + block_size / 2 in the high one, then the
//               scales as for Q8_0
//   values      one row per position: head_dim halves, or head_dim / 32
//               Q8_0 or Q4_0 blocks as the weights store them
// Attention reads a quantized tile by widening the positions it needs to
// F16 in a small buffer first (widen_keys, widen_values), then runs the
// F16 kernel over it: the buffer stays in L1, and the cache is read at the
// quantized size.

#include <cstddef>
#include <cstdint>

#include "kernels/element_type.h"

namespace ingot::kernels {

// Whether the KV cache can hold keys or values of this type, and of this
// head size (quantized types need whole groups of 32).
bool kv_type_supported(ElementType type);
bool kv_head_dim_supported(ElementType type, int64_t head_dim);

// Bytes of one head's tile of `block_size` positions.
size_t kv_tile_bytes(ElementType type, int64_t head_dim, int64_t block_size);

// Writes one position's key (head_dim floats) into cell `cell` of a key tile.
void store_key(ElementType type, const float* key, int64_t head_dim, int64_t block_size,
               int64_t cell, std::byte* tile);
// Writes one position's value into cell `cell` of a value tile.
void store_value(ElementType type, const float* value, int64_t head_dim, int64_t cell,
                 std::byte* tile);

// A quantized key tile, every position, as F16 in the F16 tile's layout.
using WidenKeysFn = void (*)(const std::byte* tile, int64_t head_dim, int64_t block_size,
                             uint16_t* out);
// Rows [first, first + count) of a quantized value tile as F16 rows, into
// the same rows of `out` (laid out as an F16 value tile).
using WidenValuesFn = void (*)(const std::byte* tile, int64_t head_dim, int64_t first,
                               int64_t count, uint16_t* out);

// The active path's widening for `type` (Q8_0 or Q4_0).
WidenKeysFn widen_keys_fn(ElementType type);
WidenValuesFn widen_values_fn(ElementType type);

namespace scalar {
WidenKeysFn widen_keys_fn(ElementType type);
WidenValuesFn widen_values_fn(ElementType type);
}  // namespace scalar

}  // namespace ingot::kernels
