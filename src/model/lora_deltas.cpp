#include "model/lora_deltas.h"

#include <algorithm>
#include <cassert>

#include "model/row_math.h"

namespace ingot::model {

void LoraDeltas::group_rows(const Batch& batch, const int64_t* rows, int64_t n_rows) {
  groups_.clear();
  pending_.clear();
  n_rows_ = n_rows;
  const std::vector<BatchEntry>& entries = batch.entries();
  for (int64_t r = 0; r < n_rows; ++r) {
    const LoraSet* set = entries[size_t(rows != nullptr ? rows[r] : r)].lora;
    if (set == nullptr) continue;
    for (const LoraUse& use : *set) {
      auto group = std::find_if(groups_.begin(), groups_.end(), [&](const Group& g) {
        return g.use.adapter == use.adapter && g.use.scale == use.scale;
      });
      if (group == groups_.end()) {
        groups_.push_back({use, {}});
        group = groups_.end() - 1;
      }
      group->rows.push_back(r);
    }
  }
}

void LoraDeltas::add_down_products(int64_t layer, std::span<const LoraOutput> outputs,
                                   PackedInput& input,
                                   std::vector<kernels::MatmulProduct>& products,
                                   ThreadPool& pool) {
  pending_.clear();
  if (layer < 0) return;  // a block outside the trunk (the prediction block)
  size_t middles = 0;
  for (const LoraOutput& output : outputs) {
    for (const Group& group : groups_) {
      const LoraPair& pair = group.use.adapter->pair(layer, output.target);
      if (pair.rank == 0) continue;
      pending_.push_back({output.target, &group, &pair, middles});
      middles += size_t(n_rows_ * pair.rank);
    }
  }
  if (middles_.size() < middles) middles_.resize(middles);
  for (const PendingPair& p : pending_) {
    products.push_back(input.product(p.pair->a, middles_.data() + p.middles, p.pair->rank, pool));
  }
}

void LoraDeltas::add_deltas(std::span<const LoraOutput> outputs, ThreadPool& pool) {
  if (pending_.empty()) return;
  size_t gathered = 0;
  size_t deltas = 0;
  for (PendingPair& p : pending_) {
    const auto n = p.group->rows.size();
    p.gathered = gathered;
    gathered += n * size_t(p.pair->rank);
    p.deltas = deltas;
    deltas += n * size_t(p.pair->out);
  }
  if (gathered_.size() < gathered) gathered_.resize(gathered);
  if (deltas_.size() < deltas) deltas_.resize(deltas);
  if (gathered_packs_.size() < pending_.size()) gathered_packs_.resize(pending_.size());
  up_products_.clear();
  for (size_t i = 0; i < pending_.size(); ++i) {
    const PendingPair& p = pending_[i];
    float* rows = gathered_.data() + p.gathered;
    gather_middles(p, rows);
    gathered_packs_[i].pack(rows, int64_t(p.group->rows.size()), p.pair->rank, p.pair->b.type,
                            pool);
    up_products_.push_back(
        {&p.pair->b, &gathered_packs_[i], deltas_.data() + p.deltas, p.pair->out});
  }
  kernels::matmul_all(up_products_, pool);
  for (const PendingPair& p : pending_) {
    const LoraOutput& output = output_for(outputs, p.target);
    const float* delta = deltas_.data() + p.deltas;
    for (const int64_t row : p.group->rows) {
      add_in_place(output.y + row * output.y_stride, delta, p.pair->out);
      delta += p.pair->out;
    }
  }
}

// The group's rows' middles, one after another, times the pair's scale.
void LoraDeltas::gather_middles(const PendingPair& p, float* dst) const {
  const int64_t rank = p.pair->rank;
  const float scale = p.group->use.adapter->scale_for(p.group->use.scale, *p.pair);
  for (const int64_t row : p.group->rows) {
    const float* middle = middles_.data() + p.middles + size_t(row * rank);
    for (int64_t k = 0; k < rank; ++k) *dst++ = scale * middle[k];
  }
}

const LoraOutput& LoraDeltas::output_for(std::span<const LoraOutput> outputs,
                                         LoraTarget target) const {
  const auto found = std::find_if(outputs.begin(), outputs.end(),
                                  [&](const LoraOutput& o) { return o.target == target; });
  assert(found != outputs.end() && "add_deltas: no output for a target of add_down_products");
  return *found;
}

}  // namespace ingot::model
