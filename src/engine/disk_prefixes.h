#pragma once
// The engine's side of the prompt cache on disk: blocks of long prefixes
// go from the KV cache to the store as they are published, and a new
// request's prefix comes back from the store into the KV cache's index
// before the engine looks for it there, so that it attaches as any cached
// prefix does.

#include <cstdint>
#include <span>
#include <unordered_map>

#include "engine/prompt_disk_store.h"
#include "model/kv_cache.h"
#include "model/model.h"

namespace ingot::engine {

class DiskPrefixes {
 public:
  // Blocks are saved once their sequence is `min_tokens` long.
  DiskPrefixes(PromptDiskOptions options, int64_t min_tokens, const model::Model& model,
               const model::KvCache& cache);

  bool enabled() const { return store_.enabled(); }
  // Indexes in `cache` the blocks of the prefix of `tokens` (up to `limit`
  // positions) that follow the blocks it indexes and the store holds.
  void restore(model::KvCache& cache, std::span<const int32_t> tokens, int64_t limit);
  // Queues the published blocks of `sequence` (whose positions hold
  // `tokens`) that the store does not hold yet.
  void save(const model::KvCache& cache, model::SequenceId sequence,
            std::span<const int32_t> tokens);
  // Returns once every queued block is written.
  void flush() { store_.flush(); }
  PromptDiskStats stats() const { return store_.stats(); }

 private:
  // How many leading blocks of a sequence are known to be stored, and the
  // prefix hash they end with (a sequence cut and grown again differs).
  struct Saved {
    size_t blocks = 0;
    uint64_t last_hash = 0;
  };

  int64_t min_tokens_;
  PromptDiskStore store_;
  std::unordered_map<model::SequenceId, Saved> saved_;
};

}  // namespace ingot::engine
