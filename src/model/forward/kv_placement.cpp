#include "model/forward/kv_placement.h"

#include <string>

namespace ingot::model {

Status KvPlacement::place(const Batch& batch, int64_t n_vocab, KvCache& cache) {
  const std::vector<BatchEntry>& entries = batch.entries();
  if (placements_.size() < entries.size()) placements_.resize(entries.size());
  for (size_t i = 0; i < entries.size(); ++i) {
    const BatchEntry& e = entries[i];
    Status status;
    if (e.token < 0 || e.token >= n_vocab) {
      status =
          invalid_argument("token id " + std::to_string(e.token) + " is outside the vocabulary");
    } else {
      Result<KvCache::Cell> cell = cache.append(e.sequence, e.position);
      if (cell.ok())
        placements_[i].cell = *cell;
      else
        status = cell.status();
    }
    if (!status.ok()) {
      for (size_t j = i; j-- > 0;) cache.truncate(entries[j].sequence, entries[j].position);
      return status;
    }
  }
  // Only now, with every sequence at its final length, are block lists stable.
  for (size_t i = 0; i < entries.size(); ++i) {
    placements_[i].blocks = &cache.blocks(entries[i].sequence);
  }
  return {};
}

}  // namespace ingot::model
