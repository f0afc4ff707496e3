#pragma once
// One pre-tokenizer regex compiled by PCRE2 (UTF, UCP, JIT), used to cut
// text into pieces the way Hugging Face's "Isolated" split does: every match
// is a piece and so is every stretch of text between matches.

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "util/status.h"

struct pcre2_real_code_8;

namespace ingot::tokenizer {

struct MatchState;

class SplitRegex {
 public:
  // `pattern` uses PCRE2 syntax. `\s` is widened to include U+0085, which
  // Unicode counts as white space and PCRE2 does not.
  static Result<SplitRegex> compile(std::string_view pattern);

  // Cuts each of `pieces` (views into valid UTF-8) further, in order. Each
  // piece is matched on its own: `$` and lookaheads stop at its end.
  void split(const std::vector<std::string_view>& pieces, std::vector<std::string_view>& out) const;

  const std::string& pattern() const { return pattern_; }

 private:
  struct CodeDeleter {
    void operator()(pcre2_real_code_8* code) const;
  };

  void split_one(std::string_view piece, MatchState& state,
                 std::vector<std::string_view>& out) const;

  std::string pattern_;
  std::unique_ptr<pcre2_real_code_8, CodeDeleter> code_;
};

// The pattern with every `\s` also accepting U+0085 (and `\S` rejecting it).
std::string widen_whitespace_class(std::string_view pattern);

}  // namespace ingot::tokenizer
