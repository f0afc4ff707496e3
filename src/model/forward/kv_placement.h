#pragma once
// Where each entry of a batch keeps its keys and values, claimed before any
// layer runs so that a failure leaves the cache as it was.

#include <cstdint>
#include <vector>

#include "model/batch.h"
#include "model/kv_cache.h"
#include "util/status.h"

namespace ingot::model {

class KvPlacement {
 public:
  // Claims a cell for every entry, in order; on the first failure (a token
  // outside the vocabulary, a full cache) gives back the cells already
  // claimed.
  Status place(const Batch& batch, int64_t n_vocab, KvCache& cache);

  KvCache::Cell cell(int64_t entry) const { return placements_[size_t(entry)].cell; }
  // The cache blocks entry `entry`'s attention reads.
  const std::vector<int32_t>& blocks(int64_t entry) const {
    return *placements_[size_t(entry)].blocks;
  }

 private:
  struct Placement {
    KvCache::Cell cell;
    const std::vector<int32_t>* blocks = nullptr;
  };
  std::vector<Placement> placements_;
};

}  // namespace ingot::model
