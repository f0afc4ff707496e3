#include <algorithm>

#include "engine/engine.h"

// How a slot reuses prompt blocks already computed: its own, those in the
// shared cache or on disk, and those another slot is computing right now.

namespace ingot::engine {

// When the cache holds a longer prefix of the prompt than the slot's own
// (computed by any sequence, live or finished), the slot's sequence goes
// back to its last whole block and takes the cached blocks after it.
size_t Engine::attach_shared_prefix(const Slot& slot, const std::vector<int32_t>& prompt,
                                    size_t reuse, uint64_t seed) {
  if (!cache_.shares_prefixes() || prompt.empty()) return reuse;
  const int64_t limit = static_cast<int64_t>(prompt.size()) - 1;
  // The disk keeps the base model's blocks only.
  if (disk_ && seed == model::KvCache::kPlainPrefixSeed) disk_->restore(cache_, prompt, limit);
  if (cache_.cached_prefix_length(prompt, limit, seed) <= static_cast<int64_t>(reuse)) {
    return reuse;
  }
  const int64_t block = cache_.block_size();
  cache_.truncate(slot.sequence(), static_cast<int64_t>(reuse) / block * block);
  return static_cast<size_t>(cache_.attach_cached_prefix(slot.sequence(), prompt, limit, seed));
}

Slot& Engine::choose_slot(const std::vector<int32_t>& prompt, const model::LoraSet& lora) {
  // The free slot sharing the longest prefix; among those sharing none, the
  // one holding the least, so that useful caches survive longest.
  Slot* best = nullptr;
  size_t best_prefix = 0;
  for (Slot& slot : slots_) {
    if (slot.busy()) continue;
    size_t prefix = slot.common_prefix(prompt, lora);
    bool better = best == nullptr || prefix > best_prefix ||
                  (prefix == best_prefix && slot.cached().size() < best->cached().size());
    if (better) {
      best = &slot;
      best_prefix = prefix;
    }
  }
  return *best;
}

// Prompts that share a prefix and arrive together: rather than each slot
// computing the same blocks side by side, one computes them and the others
// wait for it, then take its blocks as each is published. A slot waits
// only at a block boundary, for a slot ahead of it (or level with it and
// before it) whose prompt shares at least its next whole block and that
// has not computed all of what they share; so the first of them never
// waits, and the others go on as soon as it is past the shared part.
bool Engine::waits_for_another_slots_prefill(size_t index) const {
  const Slot& slot = slots_[index];
  if (!can_share_while_prefilling(slot)) return false;
  const auto position = static_cast<size_t>(slot.position());
  const auto block = static_cast<size_t>(cache_.block_size());
  for (size_t j = 0; j < slots_.size(); ++j) {
    const Slot& other = slots_[j];
    if (j == index || !other.prefilling() || other.scores_prompt() ||
        other.prefix_seed() != slot.prefix_seed()) {
      continue;
    }
    const auto ahead = static_cast<size_t>(other.position());
    if (ahead < position || (ahead == position && j > index)) continue;
    const std::vector<int32_t>& mine = slot.prompt();
    const std::vector<int32_t>& theirs = other.prompt();
    const auto common = static_cast<size_t>(
        std::mismatch(mine.begin(), mine.end(), theirs.begin(), theirs.end()).first - mine.begin());
    if (position + block <= std::min(common, mine.size() - 1) && ahead < common) return true;
  }
  return false;
}

// The blocks of this slot's prompt that other slots published since it
// last looked (see waits_for_another_slots_prefill).
void Engine::take_blocks_computed_meanwhile(Slot& slot) {
  if (!can_share_while_prefilling(slot)) return;
  const auto position = static_cast<size_t>(slot.position());
  const size_t length = attach_shared_prefix(slot, slot.prompt(), position, slot.prefix_seed());
  if (length <= position) return;
  slot.skip_cached_prefill(length - position);
  prefix_tokens_ += static_cast<int64_t>(length - position);
}

// A slot at a block boundary of a shared cache, whose prompt is not being
// scored (that wants every token's logits) and with no drafter to follow.
bool Engine::can_share_while_prefilling(const Slot& slot) const {
  return cache_.shares_prefixes() && !drafter_ && !slot.scores_prompt() && !slot.embeds() &&
         slot.position() % cache_.block_size() == 0;
}

}  // namespace ingot::engine
