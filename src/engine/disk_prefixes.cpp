#include "engine/disk_prefixes.h"

#include <algorithm>

#include "engine/prompt_cache_identity.h"

namespace ingot::engine {

DiskPrefixes::DiskPrefixes(PromptDiskOptions options, int64_t min_tokens, const model::Model& model,
                           const model::KvCache& cache)
    : min_tokens_(min_tokens),
      store_(std::move(options),
             {prompt_cache_identity(model, cache), cache.block_size(), cache.block_bytes()}) {}

// Stops at the first block neither the index nor the store holds, or that
// the cache has no room for: a prefix is only of use unbroken.
void DiskPrefixes::restore(model::KvCache& cache, std::span<const int32_t> tokens, int64_t limit) {
  if (!store_.enabled()) return;
  const int64_t block = cache.block_size();
  const int64_t end = std::min<int64_t>(limit, int64_t(tokens.size()));
  uint64_t hash = model::KvCache::kPlainPrefixSeed;
  for (int64_t at = 0; at + block <= end; at += block) {
    const auto block_tokens = tokens.subspan(size_t(at), size_t(block));
    const uint64_t next = model::KvCache::next_prefix_hash(hash, block_tokens);
    if (!cache.indexes(next)) {
      if (!store_.has(next)) return;
      auto payload = store_.load(next, hash, block_tokens);
      if (!payload || !cache.restore_block(next, block_tokens, *payload)) return;
    }
    hash = next;
  }
}

void DiskPrefixes::save(const model::KvCache& cache, model::SequenceId sequence,
                        std::span<const int32_t> tokens) {
  if (!store_.accepting()) return;
  const int64_t block = cache.block_size();
  std::span<const uint64_t> hashes = cache.prefix_hashes(sequence);
  hashes = hashes.first(std::min(hashes.size(), tokens.size() / size_t(block)));
  if (int64_t(hashes.size()) * block < min_tokens_) return;
  Saved& saved = saved_[sequence];
  if (saved.blocks > hashes.size() ||
      (saved.blocks > 0 && hashes[saved.blocks - 1] != saved.last_hash)) {
    saved = {};
  }
  for (size_t index = saved.blocks; index < hashes.size(); ++index) {
    if (!store_.has(hashes[index])) {
      std::vector<std::byte> payload(size_t(cache.block_bytes()));
      cache.save_block(sequence, index, payload);
      const uint64_t parent = index == 0 ? model::KvCache::kPlainPrefixSeed : hashes[index - 1];
      const auto block_tokens = tokens.subspan(index * size_t(block), size_t(block));
      // A full queue: the rest waits for this sequence's next step.
      if (!store_.save(hashes[index], parent, block_tokens, std::move(payload))) return;
    }
    saved = {index + 1, hashes[index]};
  }
}

}  // namespace ingot::engine
