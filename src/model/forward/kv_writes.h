#pragma once
// How a layer's new keys and values reach the cache: turned first when the
// cache holds them quantized (as llama.cpp turns them, so that they round
// as they do there), then spread into the cache's tiles.

#include <cstdint>
#include <vector>

#include "model/forward/attention_layer.h"
#include "model/forward/kv_placement.h"
#include "model/kv_cache.h"
#include "model/model_config.h"

namespace ingot::model {

// Hadamard runs over which a quantized cache's keys and values turn (0: none).
struct KvRotation {
  int64_t keys = 0;
  int64_t values = 0;
};

// When every attention layer has one head size, a multiple of 64
// (`uniform_head_dim`, else 0 or -1), quantized keys turn (with the
// queries) by H over the largest power of two dividing it, quantized
// values (and the attention's output, back) by H_64
// (kernels/ops_hadamard.h).
KvRotation kv_rotation(KvCache::Types types, int64_t uniform_head_dim);

// Every attention layer's head size when they share one, -1 when they
// differ, 0 without attention layers.
int64_t uniform_head_dim(const ModelConfig& config);

// Writes n_tokens rows of keys and values ([T][kv_dim] each) into the
// cells `placement` gave their entries. `k_f16` is scratch of
// n_tokens * kv_dim.
void store_kv(const AttentionLayer& s, const float* k, const float* v, int64_t n_tokens,
              const KvPlacement& placement, std::vector<uint16_t>& k_f16, KvCache& cache);

}  // namespace ingot::model
