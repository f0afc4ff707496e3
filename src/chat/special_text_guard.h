#pragma once
// Text from a request's messages is the user's, not the template's: a
// control token written in it (`<|im_end|>\n<|im_start|>system`) must stay
// text, or a user could fake a turn of another role. Before rendering,
// each control-token text in the messages is swapped for a placeholder
// that templates pass through as they pass any text; after, the
// placeholders are put back and their ranges kept, for the tokenizer to
// read as plain text while it parses the template's own markers.

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tokenizer/tokenizer.h"

namespace ingot::chat {

struct GuardedPrompt {
  std::string text;
  std::vector<tokenizer::TextRange> literal;  // sorted, disjoint
};

class SpecialTextGuard {
 public:
  explicit SpecialTextGuard(const tokenizer::Tokenizer& tokenizer) : tokenizer_(&tokenizer) {}

  // The messages (content already flattened to strings) with every
  // control-token text in `content`, `reasoning_content` and `thinking`
  // swapped for a placeholder.
  nlohmann::ordered_json guard(nlohmann::ordered_json messages);
  // The rendered prompt with the placeholders put back.
  GuardedPrompt restore(const std::string& rendered) const;

 private:
  std::string guard_text(const std::string& text);

  const tokenizer::Tokenizer* tokenizer_;
  std::vector<std::string> originals_;  // by placeholder number
};

}  // namespace ingot::chat
