#include "model/lora_deltas.h"

#include <algorithm>

#include "kernels/ops_low_rank.h"

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
  for (PendingPair& p : pending_) {
    p.gathered = gathered;
    gathered += p.group->rows.size() * size_t(p.pair->rank);
  }
  if (gathered_.size() < gathered) gathered_.resize(gathered);
  for (const PendingPair& p : pending_) gather_middles(p, gathered_.data() + p.gathered);
  // Work items are chunks of one output's features: every pair adding to
  // those features runs in the same item, so no two threads add to the
  // same value.
  chunks_.clear();
  for (const LoraOutput& output : outputs) {
    const int64_t out = out_features(output.target);
    for (int64_t begin = 0; begin < out; begin += kChunkFeatures) {
      chunks_.push_back({&output, begin, std::min(begin + kChunkFeatures, out)});
    }
  }
  pool.parallel_for(int64_t(chunks_.size()), 1, [&](int64_t first, int64_t last) {
    for (int64_t c = first; c < last; ++c) add_chunk(chunks_[size_t(c)]);
  });
}

// The output's width: that of any pending pair for its target (0: none).
int64_t LoraDeltas::out_features(LoraTarget target) const {
  for (const PendingPair& p : pending_) {
    if (p.target == target) return p.pair->out;
  }
  return 0;
}

void LoraDeltas::add_chunk(const Chunk& chunk) const {
  const LoraOutput& output = *chunk.output;
  for (const PendingPair& p : pending_) {
    if (p.target != output.target) continue;
    const int64_t rank = p.pair->rank;
    const float* middle = gathered_.data() + p.gathered;
    for (const int64_t row : p.group->rows) {
      kernels::add_low_rank(middle, rank, p.pair->b_blocks.data(), chunk.begin, chunk.end,
                            output.y + row * output.y_stride);
      middle += rank;
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

}  // namespace ingot::model
