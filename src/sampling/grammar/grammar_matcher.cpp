#include "sampling/grammar/grammar_matcher.h"

#include <algorithm>
#include <unordered_set>

namespace ingot::sampling::grammar {
namespace {

struct StackHash {
  size_t operator()(const Stack& stack) const {
    uint64_t h = 0xcbf29ce484222325ull;
    for (uint32_t position : stack) h = (h ^ position) * 0x100000001b3ull;
    return static_cast<size_t>(h ^ (h >> 29));
  }
};

// Replaces rule references at the top of each stack in `work` by the
// rule's alternatives until every top is a character class (or the stack
// is empty), appending the results to `out`. Iterative: a long chain of
// rules must not run the C++ stack out. A stack whose reference was
// already replaced along another path is dropped (see ExpansionMemo for
// why such paths multiply). Copies are bounded apart from steps: what
// they cost grows with the stacks' depth.
bool expand(const Grammar& grammar, std::vector<Stack>& work, std::vector<Stack>& out) {
  int64_t budget = kMaxExpansionSteps;
  int64_t copies = kMaxCopiedPositions;
  std::unordered_set<Stack, StackHash> expanded;
  while (!work.empty()) {
    Stack stack = std::move(work.back());
    work.pop_back();
    for (;;) {
      if (--budget < 0) return false;
      if (stack.empty()) {
        out.push_back(std::move(stack));
        break;
      }
      uint32_t position = stack.back();
      const Element& e = grammar.element(position);
      if (e.kind == ElementKind::kEnd) {
        stack.pop_back();
        continue;
      }
      if (e.kind == ElementKind::kClass) {
        out.push_back(std::move(stack));
        break;
      }
      copies -= static_cast<int64_t>(stack.size());
      if (copies < 0) return false;
      if (!expanded.insert(stack).second) break;
      // The reference is replaced by what follows it; a reference that
      // ends its alternative leaves nothing to return to (so right
      // recursion such as repetition does not deepen the stack).
      if (grammar.element(position + 1).kind == ElementKind::kEnd) {
        stack.pop_back();
      } else {
        stack.back() = position + 1;
      }
      if (stack.size() >= kMaxStackDepth) return false;
      const auto& alternatives = grammar.rule(e.value).alternatives;
      for (size_t i = 0; i + 1 < alternatives.size(); ++i) {
        copies -= static_cast<int64_t>(stack.size());
        work.push_back(stack);
        work.back().push_back(alternatives[i]);
      }
      stack.push_back(alternatives.back());
    }
  }
  return true;
}

bool normalize(std::vector<Stack>& stacks) {
  std::sort(stacks.begin(), stacks.end());
  stacks.erase(std::unique(stacks.begin(), stacks.end()), stacks.end());
  return !stacks.empty() && stacks.size() <= kMaxStacks;
}

}  // namespace

bool initial_stacks(const Grammar& grammar, std::vector<Stack>& out) {
  out.clear();
  std::vector<Stack> work;
  for (uint32_t start : grammar.rule(grammar.root()).alternatives) work.push_back({start});
  return expand(grammar, work, out) && normalize(out);
}

bool advance_stacks(const Grammar& grammar, const std::vector<Stack>& stacks, char32_t c,
                    std::vector<Stack>& out) {
  out.clear();
  std::vector<Stack> work;
  for (const Stack& stack : stacks) {
    if (stack.empty()) continue;
    const Element& top = grammar.element(stack.back());
    if (!grammar.char_class(top.value).contains(c)) continue;
    work.push_back(stack);
    work.back().back() += 1;
  }
  if (work.empty()) return false;
  return expand(grammar, work, out) && normalize(out);
}

bool any_top_allows(const Grammar& grammar, const std::vector<Stack>& stacks, char32_t first,
                    char32_t last) {
  return std::any_of(stacks.begin(), stacks.end(), [&](const Stack& stack) {
    return !stack.empty() &&
           grammar.char_class(grammar.element(stack.back()).value).intersects(first, last);
  });
}

GrammarMatcher::GrammarMatcher(std::shared_ptr<const Grammar> grammar)
    : grammar_(std::move(grammar)) {
  if (!initial_stacks(*grammar_, stacks_)) stacks_.clear();
}

bool GrammarMatcher::accept_bytes(std::string_view bytes) {
  if (dead()) return false;
  std::vector<Stack> stacks = stacks_;
  std::vector<Stack> next;
  PartialUtf8 partial = partial_;
  for (char ch : bytes) {
    auto b = static_cast<uint8_t>(ch);
    char32_t c;
    if (partial.missing > 0) {
      if ((b & 0xC0) != 0x80) return false;
      partial.value = (partial.value << 6) | (b & 0x3F);
      if (--partial.missing > 0) continue;
      if (!valid_code_point(partial.value, partial.length)) return false;
      c = partial.value;
      partial = {};
    } else {
      int length = utf8_length(b);
      if (length == 0) return false;
      if (length > 1) {
        partial = {static_cast<char32_t>(b & (0x7F >> length)), static_cast<uint8_t>(length - 1),
                   static_cast<uint8_t>(length)};
        continue;
      }
      c = b;
    }
    if (!advance_stacks(*grammar_, stacks, c, next)) return false;
    stacks.swap(next);
  }
  if (partial.missing > 0) {
    char32_t first, last;
    if (!partial_range(partial, first, last)) return false;
    if (!any_top_allows(*grammar_, stacks, first, last)) return false;
  }
  stacks_ = std::move(stacks);
  partial_ = partial;
  return true;
}

bool GrammarMatcher::can_end() const {
  return partial_.missing == 0 && !stacks_.empty() && stacks_.front().empty();
}

bool GrammarMatcher::must_end() const {
  return partial_.missing == 0 && stacks_.size() == 1 && stacks_.front().empty();
}

}  // namespace ingot::sampling::grammar
