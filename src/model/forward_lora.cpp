// LoRA deltas on a step's projections: each row adds, for every adapter its
// sequence runs with, scale B (A x) to the base matmul's output (see
// model/lora_adapter.h). The base matmul runs once for the whole batch,
// whatever adapters its sequences use; each adapter's pair then runs once
// over the rows that use it (gathered, through the matmul kernels, then
// added back), so a step reads an adapter once, not once per row.

#include <algorithm>

#include "model/forward_pass.h"
#include "model/row_math.h"

namespace ingot::model {

int64_t ForwardPass::layer_index(const LayerWeights& w) const {
  const int64_t index = &w - weights_.layers.data();
  return index >= 0 && index < int64_t(weights_.layers.size()) ? index : -1;
}

// The distinct (adapter, scale) uses among the rows, and each one's rows.
void ForwardPass::group_lora_rows(const Batch& batch, int64_t n_rows, bool mapped) {
  lora_groups_.clear();
  const std::vector<BatchEntry>& entries = batch.entries();
  for (int64_t r = 0; r < n_rows; ++r) {
    const LoraSet* set = entries[size_t(mapped ? rows_[r] : r)].lora;
    if (set == nullptr) continue;
    for (const LoraUse& use : *set) {
      auto group = std::find_if(lora_groups_.begin(), lora_groups_.end(), [&](const LoraGroup& g) {
        return g.use.adapter == use.adapter && g.use.scale == use.scale;
      });
      if (group == lora_groups_.end()) {
        lora_groups_.push_back({use, {}});
        group = lora_groups_.end() - 1;
      }
      group->rows.push_back(r);
    }
  }
}

void ForwardPass::add_lora(LoraTarget target, int64_t layer, const Batch& batch, const float* x,
                           float* y, int64_t n_rows, bool mapped, ThreadPool& pool) {
  if (layer < 0) return;  // a block outside the trunk (the prediction block)
  group_lora_rows(batch, n_rows, mapped);
  for (const LoraGroup& group : lora_groups_) {
    const LoraPair& pair = group.use.adapter->pair(layer, target);
    if (pair.rank == 0) continue;
    const auto n = int64_t(group.rows.size());
    if (int64_t(lora_in_.size()) < n * pair.in) lora_in_.resize(size_t(n * pair.in));
    if (int64_t(lora_mid_.size()) < n * pair.rank) lora_mid_.resize(size_t(n * pair.rank));
    if (int64_t(lora_out_.size()) < n * pair.out) lora_out_.resize(size_t(n * pair.out));
    for (int64_t i = 0; i < n; ++i) {
      std::copy_n(x + group.rows[size_t(i)] * pair.in, pair.in, lora_in_.data() + i * pair.in);
    }
    lora_packed_.reset(lora_in_.data(), n, pair.in);
    kernels::matmul(pair.a, lora_packed_.for_weight(pair.a, pool), lora_mid_.data(), pair.rank,
                    pool);
    const float scale = group.use.adapter->scale_for(group.use.scale, pair);
    for (int64_t i = 0; i < n * pair.rank; ++i) lora_mid_[size_t(i)] *= scale;
    lora_packed_.reset(lora_mid_.data(), n, pair.rank);
    kernels::matmul(pair.b, lora_packed_.for_weight(pair.b, pool), lora_out_.data(), pair.out,
                    pool);
    for (int64_t i = 0; i < n; ++i) {
      add_in_place(y + group.rows[size_t(i)] * pair.out, lora_out_.data() + i * pair.out, pair.out);
    }
  }
}

}  // namespace ingot::model
