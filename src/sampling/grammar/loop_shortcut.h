#pragma once
// The fast path for states where nearly every token is allowed, such as
// the inside of a JSON string. In such a state S most characters lead
// straight back to S (the "loop set"). A token made only of loop
// characters is then allowed and needs no walk; any other token behaves
// as its rest from the first non-loop character would, walked from S. So
// per loop set the vocabulary splits once into a mask of pure-loop tokens
// and a small trie of rests, and a state with that loop set costs a walk
// of the small trie instead of the whole vocabulary.

#include <cstdint>
#include <memory>

#include "sampling/grammar/grammar_matcher.h"
#include "sampling/grammar/token_mask.h"
#include "sampling/grammar/token_trie.h"

namespace ingot::sampling::grammar {

struct LoopSet {
  uint64_t ascii[2] = {0, 0};  // ASCII characters that lead back to the state
  bool non_ascii = false;      // every character from U+0080 on does too

  bool has(uint8_t c) const { return (ascii[c >> 6] >> (c & 63)) & 1; }
  int ascii_count() const;
  friend bool operator==(const LoopSet&, const LoopSet&) = default;
};

// The loop set of `matcher`'s state (empty when it has a partial character).
LoopSet find_loop_set(const GrammarMatcher& matcher);

struct LoopIndex {
  TokenMask pure;                         // tokens of loop characters only
  std::shared_ptr<const TokenTrie> rest;  // every other token, by its rest
};

LoopIndex build_loop_index(const TokenTrie& trie, const LoopSet& loop);

}  // namespace ingot::sampling::grammar
