#pragma once
// The allowed-token mask for a matcher's state, computed by one walk of
// the vocabulary trie (see TokenTrie) and cached by state: decoding under
// a grammar revisits the same states again and again (inside a JSON
// string, after a comma, ...), and a cached mask costs nothing to reuse.
//
// End-of-generation tokens are allowed exactly when the matcher can end;
// control tokens never are. A token whose bytes stop mid-character is
// allowed when some completion of that character could follow.
//
// Thread-safe: mask() serialises on a mutex; fill() keeps no shared state.

#include <cstdint>
#include <list>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "sampling/grammar/grammar_matcher.h"
#include "sampling/grammar/loop_shortcut.h"
#include "sampling/grammar/token_mask.h"
#include "sampling/grammar/token_trie.h"

namespace ingot::sampling::grammar {

class TokenMasker {
 public:
  explicit TokenMasker(std::shared_ptr<const TokenTrie> trie, size_t cache_capacity = 256);
  ~TokenMasker();

  // The mask for `matcher`'s state, from the cache when the state was seen.
  std::shared_ptr<const TokenMask> mask(const GrammarMatcher& matcher);
  // Computes the mask for `matcher`'s state into `mask` (no cache).
  void fill(const GrammarMatcher& matcher, TokenMask& mask) const;

  const TokenTrie& trie() const { return *trie_; }
  struct Stats {
    int64_t hits = 0;
    int64_t misses = 0;
  };
  Stats stats() const;

 private:
  struct Entry;
  class Walker;

  void compute(const GrammarMatcher& matcher, TokenMask& mask, Walker& walker) const;
  void keep_only_accepted(const GrammarMatcher& matcher, TokenMask& mask) const;
  std::shared_ptr<const LoopIndex> loop_index(const LoopSet& loop) const;

  std::shared_ptr<const TokenTrie> trie_;
  size_t capacity_;
  mutable std::mutex mutex_;
  std::unordered_multimap<uint64_t, std::list<Entry>::iterator> index_;
  std::list<Entry> entries_;  // most recently used first
  std::unique_ptr<Walker> walker_;
  Stats stats_;
  mutable std::mutex loops_mutex_;
  mutable std::vector<std::pair<LoopSet, std::shared_ptr<const LoopIndex>>>
      loops_;  // most recent last
};

}  // namespace ingot::sampling::grammar
