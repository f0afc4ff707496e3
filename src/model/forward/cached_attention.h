#pragma once
// Attention over the cache: each row's query heads attend to its
// sequence's positions up to its own (in a sliding-window layer, the last
// `window` of them; in an encoder, all of them; in a canvas, see
// bidirectional_tail), one task per (row, KV head), so that the heads
// sharing a KV head read its keys and values once. The batch's keys are already in the cache, so a
// prompt's tokens see each other causally and never another sequence's; an encoder's sequence is in
// the batch whole.

#include <cstdint>

#include "model/batch.h"
#include "model/forward/attention_layer.h"
#include "model/forward/kv_placement.h"
#include "model/kv_cache.h"
#include "util/thread_pool.h"

namespace ingot::model {

// Query heads per KV head that one attention task can hold state for.
inline constexpr int64_t kMaxGroupSize = 64;

struct CachedAttention {
  const AttentionLayer& layer;
  int64_t n_heads;
  bool causal;
  const float* q;       // [n_rows][q_dim]
  float* out;           // [n_rows][q_dim]
  const int64_t* rows;  // row r is entry rows[r]
  int64_t n_rows;
  const float* sinks;  // n_heads logits (gpt-oss), or null
  // DiffusionGemma's canvas: the last `bidirectional_tail` positions of
  // each sequence see each other whatever their order, and the positions
  // before them as the first of them would (a sliding layer's window
  // reaching back from there); 0: none.
  int64_t bidirectional_tail = 0;
};

void attend_cached(const CachedAttention& a, const Batch& batch, const KvPlacement& placement,
                   const KvCache& cache, ThreadPool& pool);

}  // namespace ingot::model
