#include "sampling/grammar/loop_shortcut.h"

#include <bit>
#include <string_view>

#include "sampling/grammar/utf8.h"

namespace ingot::sampling::grammar {
namespace {

bool covers_all_non_ascii(const CharClass& set) {
  for (const auto& [first, last] : set.ranges()) {
    if (first <= 0x80 && last >= kMaxCodePoint) return true;
  }
  return false;
}

// Whether every character from U+0080 on leads `stacks` to the same next
// state: each top either takes all of them or none.
bool non_ascii_uniform(const Grammar& grammar, const std::vector<Stack>& stacks) {
  for (const Stack& stack : stacks) {
    if (stack.empty()) continue;
    const CharClass& set = grammar.char_class(grammar.element(stack.back()).value);
    if (!covers_all_non_ascii(set) && set.intersects(0x80, kMaxCodePoint)) return false;
  }
  return true;
}

// Length of the prefix of `bytes` made of whole loop characters.
size_t loop_prefix(std::string_view bytes, const LoopSet& loop) {
  size_t i = 0;
  while (i < bytes.size()) {
    auto b = static_cast<uint8_t>(bytes[i]);
    if (b < 0x80) {
      if (!loop.has(b)) break;
      ++i;
      continue;
    }
    if (!loop.non_ascii) break;
    size_t next = i;
    char32_t c;
    if (!decode_utf8(bytes, next, c)) break;  // invalid, or a character the token leaves unfinished
    i = next;
  }
  return i;
}

}  // namespace

int LoopSet::ascii_count() const {
  return std::popcount(ascii[0]) + std::popcount(ascii[1]);
}

LoopSet find_loop_set(const GrammarMatcher& matcher) {
  LoopSet loop;
  if (matcher.partial().missing > 0 || matcher.dead()) return loop;
  const Grammar& grammar = matcher.grammar();
  const std::vector<Stack>& stacks = matcher.stacks();
  std::vector<Stack> next;
  for (char32_t c = 0; c < 128; ++c) {
    if (advance_stacks(grammar, stacks, c, next) && next == stacks)
      loop.ascii[c >> 6] |= uint64_t{1} << (c & 63);
  }
  loop.non_ascii = non_ascii_uniform(grammar, stacks) &&
                   advance_stacks(grammar, stacks, 0x100, next) && next == stacks;
  return loop;
}

LoopIndex build_loop_index(const TokenTrie& trie, const LoopSet& loop) {
  LoopIndex index;
  index.pure.reset(trie.vocab_size());
  std::vector<std::pair<int32_t, std::string>> rests;
  for (const auto& [id, bytes] : trie.pieces()) {
    size_t n = loop_prefix(bytes, loop);
    if (n == bytes.size()) {
      index.pure.allow(id);
    } else {
      rests.emplace_back(id, bytes.substr(n));
    }
  }
  index.rest = std::make_shared<const TokenTrie>(trie.vocab_size(), std::move(rests),
                                                 std::vector<int32_t>{});
  return index;
}

}  // namespace ingot::sampling::grammar
