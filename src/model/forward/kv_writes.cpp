#include "model/forward/kv_writes.h"

#include "kernels/kernel_table.h"
#include "kernels/kv_tiles.h"
#include "model/forward/residual.h"

namespace ingot::model {

KvRotation kv_rotation(KvCache::Types types, int64_t uniform_head_dim) {
  KvRotation rotation;
  if (uniform_head_dim <= 0 || uniform_head_dim % 64 != 0) return rotation;
  if (types.keys != kernels::ElementType::kF16)
    rotation.keys = uniform_head_dim & -uniform_head_dim;
  if (types.values != kernels::ElementType::kF16) rotation.values = 64;
  return rotation;
}

int64_t uniform_head_dim(const ModelConfig& config) {
  int64_t uniform = 0;
  for (int64_t layer = 0; layer < config.n_layers; ++layer) {
    if (config.is_recurrent(layer)) continue;
    const int64_t head_dim = config.head_dim_of(layer);
    if (uniform == 0) uniform = head_dim;
    if (uniform != head_dim) uniform = -1;
  }
  return uniform;
}

void store_kv(const AttentionLayer& s, const float* k, const float* v, int64_t n_tokens,
              const KvPlacement& placement, std::vector<uint16_t>& k_f16, KvCache& cache) {
  const int64_t head_dim = s.head_dim, kv_layer = s.kv_layer;
  const int64_t block_size = cache.block_size();
  const KvCache::Types types = cache.types();
  const kernels::PackRowFn to_f16 = kernels::active_kernels().pack_row(kernels::ElementType::kF16);
  const bool f16_keys = types.keys == kernels::ElementType::kF16;
  if (f16_keys) {
    grow(k_f16, n_tokens * s.kv_dim);
    to_f16(k, k_f16.data(), n_tokens * s.kv_dim);
  }
  for (int64_t t = 0; t < n_tokens; ++t) {
    const KvCache::Cell cell = placement.cell(t);
    for (int64_t h = 0; h < s.kv_heads; ++h) {
      const int64_t first = t * s.kv_dim + h * head_dim;
      // Keys go in dimension-major (see KvCache), values position-major.
      if (f16_keys) {
        uint16_t* k_tile = cache.keys(kv_layer, cell.block, h) + cell.offset;
        for (int64_t d = 0; d < head_dim; ++d) k_tile[d * block_size] = k_f16[size_t(first + d)];
      } else {
        kernels::store_key(types.keys, k + first, head_dim, block_size, cell.offset,
                           cache.key_tile(kv_layer, cell.block, h));
      }
      if (types.values == kernels::ElementType::kF16) {
        to_f16(v + first, cache.values(kv_layer, cell.block, h) + cell.offset * head_dim, head_dim);
      } else {
        kernels::store_value(types.values, v + first, head_dim, cell.offset,
                             cache.value_tile(kv_layer, cell.block, h));
      }
    }
  }
}

}  // namespace ingot::model
