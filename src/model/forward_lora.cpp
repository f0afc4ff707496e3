// LoRA deltas on a step's projections: each row adds, for every adapter its
// sequence runs with, scale B (A x) to the base matmul's output (see
// model/lora_adapter.h). The base matmul runs once for the whole batch,
// whatever adapters its sequences use; only the low-rank terms are per row.

#include <algorithm>

#include "model/forward_pass.h"

namespace ingot::model {

int64_t ForwardPass::layer_index(const LayerWeights& w) const {
  const int64_t index = &w - weights_.layers.data();
  return index >= 0 && index < int64_t(weights_.layers.size()) ? index : -1;
}

void ForwardPass::add_lora(LoraTarget target, int64_t layer, const Batch& batch, const float* x,
                           float* y, int64_t n_rows, bool mapped, ThreadPool& pool) {
  if (layer < 0) return;  // a block outside the trunk (the prediction block)
  const std::vector<BatchEntry>& entries = batch.entries();
  const int64_t grain = std::max<int64_t>(1, n_rows / (4 * pool.size()));
  pool.parallel_for(n_rows, grain, [&](int64_t begin, int64_t end) {
    for (int64_t r = begin; r < end; ++r) {
      const LoraSet* set = entries[size_t(mapped ? rows_[r] : r)].lora;
      if (set == nullptr) continue;
      for (const LoraUse& use : *set) {
        const LoraPair& pair = use.adapter->pair(layer, target);
        if (pair.rank == 0) continue;
        pair.apply(x + r * pair.in, y + r * pair.out, use.adapter->scale_for(use.scale, pair));
      }
    }
  });
}

}  // namespace ingot::model
