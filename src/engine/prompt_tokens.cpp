#include "engine/prompt_tokens.h"

namespace ingot::engine {

std::vector<int32_t> tokenize_rendered_prompt(const tokenizer::Tokenizer& tokenizer,
                                              const std::string& prompt,
                                              const std::string& bos_text,
                                              std::span<const tokenizer::TextRange> literal) {
  bool has_bos_text = !bos_text.empty() && prompt.starts_with(bos_text);
  return tokenizer.encode(prompt, /*add_special=*/!has_bos_text, literal);
}

namespace {

// Whether the prompt, trailing whitespace aside, ends with `tag`.
bool prompt_ends_with(const std::string& prompt, std::string_view tag) {
  size_t end = prompt.find_last_not_of(" \n\r\t");
  if (end == std::string::npos) return false;
  return std::string_view(prompt.data(), end + 1).ends_with(tag);
}

}  // namespace

bool prompt_opens_reasoning(const std::string& prompt, const ReasoningTags& tags) {
  return prompt_ends_with(prompt, tags.open);
}

bool prompt_closes_reasoning(const std::string& prompt, const ReasoningTags& tags) {
  return prompt_ends_with(prompt, tags.close);
}

}  // namespace ingot::engine
