#pragma once
// From a rendered chat prompt to what the engine runs, the same way for
// every front end (HTTP, the chat REPL).

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "engine/reasoning_splitter.h"
#include "tokenizer/tokenizer.h"

namespace ingot::engine {

// BOS as the model asks, unless the template already wrote it (templates
// that start with {{ bos_token }} would otherwise get two); special tokens
// written by the template are parsed, those inside the `literal` ranges
// (text from the messages) are not.
std::vector<int32_t> tokenize_rendered_prompt(const tokenizer::Tokenizer& tokenizer,
                                              const std::string& prompt,
                                              const std::string& bos_text,
                                              std::span<const tokenizer::TextRange> literal = {});

// True when the prompt ends inside a reasoning block (a generation prompt
// that opens <think>), so the reply starts as reasoning.
bool prompt_opens_reasoning(const std::string& prompt, const ReasoningTags& tags);

// True when the prompt ends with an empty, closed reasoning block (a
// generation prompt that turned thinking off: <think>\n\n</think>).
bool prompt_closes_reasoning(const std::string& prompt, const ReasoningTags& tags);

}  // namespace ingot::engine
