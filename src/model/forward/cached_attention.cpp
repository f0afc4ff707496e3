#include "model/forward/cached_attention.h"

#include <algorithm>
#include <array>
#include <vector>

#include "kernels/kv_tiles.h"
#include "kernels/ops_attention.h"

namespace ingot::model {
namespace {

// A worker's buffer for widened tiles: kept between steps, so that a
// quantized cache allocates nothing per token.
std::vector<uint16_t>& widened_tile(int which, size_t elements) {
  thread_local std::vector<uint16_t> buffers[2];
  std::vector<uint16_t>& buffer = buffers[which];
  if (buffer.size() < elements) buffer.resize(elements);
  return buffer;
}

// A run of cached positions as the F16 attention kernel reads it: a
// quantized tile is widened into a buffer of the worker's own first.
class KvRunReader {
 public:
  KvRunReader(const KvCache& cache, int64_t layer, int64_t head_dim)
      : cache_(cache), layer_(layer), head_dim_(head_dim) {
    const KvCache::Types types = cache.types();
    if (types.keys != kernels::ElementType::kF16) {
      widen_keys_ = kernels::widen_keys_fn(types.keys);
      key_buffer_ = widened_tile(0, size_t(head_dim * cache.block_size())).data();
    }
    if (types.values != kernels::ElementType::kF16) {
      widen_values_ = kernels::widen_values_fn(types.values);
      value_buffer_ = widened_tile(1, size_t(head_dim * cache.block_size())).data();
    }
  }

  // Keys of positions [offset, ...) of a block, with a stride of block_size.
  const uint16_t* keys(int32_t block, int64_t head, int64_t offset) {
    if (widen_keys_ == nullptr) return cache_.keys(layer_, block, head) + offset;
    widen_keys_(cache_.key_tile(layer_, block, head), head_dim_, cache_.block_size(), key_buffer_);
    return key_buffer_ + offset;
  }
  // Values of positions [offset, offset + count) of a block.
  const uint16_t* values(int32_t block, int64_t head, int64_t offset, int64_t count) {
    if (widen_values_ == nullptr) return cache_.values(layer_, block, head) + offset * head_dim_;
    widen_values_(cache_.value_tile(layer_, block, head), head_dim_, offset, count, value_buffer_);
    return value_buffer_ + offset * head_dim_;
  }

 private:
  const KvCache& cache_;
  int64_t layer_;
  int64_t head_dim_;
  kernels::WidenKeysFn widen_keys_ = nullptr;
  kernels::WidenValuesFn widen_values_ = nullptr;
  uint16_t* key_buffer_ = nullptr;
  uint16_t* value_buffer_ = nullptr;
};

// Positions [from, n_positions) of one entry's sequence, for the `group`
// query heads of one KV head.
struct HeadTask {
  const float* q;
  float* out;
  int64_t kv_head;
  int64_t from;
  int64_t n_positions;
  const std::vector<int32_t>* blocks;
};

void attend_group(const CachedAttention& a, int64_t group, const HeadTask& task, KvRunReader& run,
                  int64_t block_size, std::array<kernels::AttentionState, kMaxGroupSize>& states) {
  const int64_t head_dim = a.layer.head_dim;
  for (int64_t h = 0; h < group; ++h) {
    kernels::attention_begin(states[h], task.out + h * head_dim, head_dim);
  }
  for (int64_t start = task.from; start < task.n_positions;) {
    // Keys are dimension-major with a stride of block_size, so a run that
    // starts inside a block starts at an offset in both tiles.
    const int64_t b = start / block_size, offset = start % block_size;
    const int64_t count = std::min(block_size - offset, task.n_positions - start);
    const int32_t block = (*task.blocks)[size_t(b)];
    kernels::attention_accumulate(task.q, group, run.keys(block, task.kv_head, offset), block_size,
                                  run.values(block, task.kv_head, offset, count), count, head_dim,
                                  a.layer.scale, states.data(), task.out);
    start += count;
  }
  for (int64_t h = 0; h < group; ++h) {
    if (a.sinks != nullptr) {
      const float sink = a.sinks[task.kv_head * group + h];
      kernels::attention_fold_sink(states[h], task.out + h * head_dim, head_dim, sink);
    }
    kernels::attention_end(states[h], task.out + h * head_dim, head_dim);
  }
}

}  // namespace

void attend_cached(const CachedAttention& a, const Batch& batch, const KvPlacement& placement,
                   const KvCache& cache, ThreadPool& pool) {
  const AttentionLayer& s = a.layer;
  const int64_t group = a.n_heads / s.kv_heads;
  const int64_t n_tasks = a.n_rows * s.kv_heads;
  const int64_t block_size = cache.block_size();
  const int64_t grain = std::max<int64_t>(1, n_tasks / (8 * pool.size()));
  pool.parallel_for(n_tasks, grain, [&](int64_t begin, int64_t end) {
    std::array<kernels::AttentionState, kMaxGroupSize> states;
    KvRunReader run(cache, s.kv_layer, s.head_dim);
    for (int64_t task = begin; task < end; ++task) {
      const int64_t row = task / s.kv_heads, kv_head = task % s.kv_heads;
      const int64_t t = a.rows[row];  // the entry this row of q belongs to
      const int64_t first = row * s.q_dim + kv_head * group * s.head_dim;
      const BatchEntry& entry = batch.entries()[size_t(t)];
      const int64_t n_positions = a.causal && a.bidirectional_tail == 0
                                      ? entry.position + 1
                                      : cache.sequence_length(entry.sequence);
      const int64_t window_end =
          a.bidirectional_tail > 0 ? n_positions - a.bidirectional_tail + 1 : n_positions;
      const int64_t from = s.window > 0 ? std::max<int64_t>(0, window_end - s.window) : 0;
      const HeadTask head_task{a.q + first, a.out + first, kv_head,
                               from,        n_positions,   &placement.blocks(t)};
      attend_group(a, group, head_task, run, block_size, states);
    }
  });
}

}  // namespace ingot::model
