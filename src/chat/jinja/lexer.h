#pragma once
// Splits template source into tokens the way Jinja2's lexer does with
// trim_blocks and lstrip_blocks on: text between tags becomes data tokens
// (whitespace control applied), comments vanish, {% raw %} bodies become
// data, and the inside of {{ }} and {% %} becomes names, literals and
// operators.

#include <string>
#include <string_view>
#include <vector>

#include "chat/jinja/errors.h"

namespace ingot::chat::jinja {

enum class TokenType {
  kData,
  kVariableBegin,
  kVariableEnd,
  kBlockBegin,
  kBlockEnd,
  kName,
  kString,   // value holds the unescaped text
  kInteger,  // value holds the digits (underscores removed)
  kFloat,
  kOperator,
  kEnd,
};

struct Token {
  TokenType type;
  std::string value;
  SourcePos pos;
};

// Throws ErrorException (kInvalidFormat) with a position on malformed input.
std::vector<Token> tokenize(std::string_view source);

}  // namespace ingot::chat::jinja
