#pragma once
// The state of one generation under a grammar: the set of pushdown stacks
// that could explain the text so far. A stack lists grammar positions
// (Grammar::element indices), the next one to match on top; every top is
// a character class, and an empty stack means the sentence may end here.
// Text arrives as bytes and advances the stacks one code point at a time;
// bytes that stop mid-character are held until the character completes.
//
// Bounds keep ambiguous or deeply nested grammars from eating memory: a
// step that would need more stacks, deeper stacks or more expansion work
// than the limits below is refused like any disallowed text.

#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "sampling/grammar/grammar.h"
#include "sampling/grammar/utf8.h"

namespace ingot::sampling::grammar {

// Parses in flight at once: an object of a few thousand properties that
// may each come first, or an anyOf of as many objects, fits.
inline constexpr size_t kMaxStacks = 8192;
inline constexpr size_t kMaxStackDepth = 8192;
inline constexpr int64_t kMaxExpansionSteps = 100'000;  // per code point
// Stack positions copied per code point: what they cost grows with depth.
inline constexpr int64_t kMaxCopiedPositions = int64_t{1} << 20;

using Stack = std::vector<uint32_t>;

class GrammarMatcher {
 public:
  explicit GrammarMatcher(std::shared_ptr<const Grammar> grammar);

  // Advances over `bytes`; false (and the state unchanged) if the grammar
  // does not allow them. Bytes may end inside a character.
  bool accept_bytes(std::string_view bytes);
  // The text so far is a complete sentence of the grammar.
  bool can_end() const;
  // The text so far is complete and nothing may follow it.
  bool must_end() const;
  // No text at all is allowed: only when the grammar's start already
  // exceeded the bounds (parse_gbnf rejects such grammars).
  bool dead() const { return stacks_.empty(); }

  const Grammar& grammar() const { return *grammar_; }
  const std::shared_ptr<const Grammar>& grammar_ptr() const { return grammar_; }
  // Sorted and free of duplicates, so equal states compare equal.
  const std::vector<Stack>& stacks() const { return stacks_; }
  const PartialUtf8& partial() const { return partial_; }

 private:
  std::shared_ptr<const Grammar> grammar_;
  std::vector<Stack> stacks_;
  PartialUtf8 partial_;
};

// The stacks `stacks` become after matching code point `c`, expanded and
// deduplicated. False when none match or a bound is exceeded.
bool advance_stacks(const Grammar& grammar, const std::vector<Stack>& stacks, char32_t c,
                    std::vector<Stack>& out);

// The stacks a sentence starts with. False when a bound is exceeded.
bool initial_stacks(const Grammar& grammar, std::vector<Stack>& out);

// Whether some stack's top admits a code point in [first, last].
bool any_top_allows(const Grammar& grammar, const std::vector<Stack>& stacks, char32_t first,
                    char32_t last);

}  // namespace ingot::sampling::grammar
