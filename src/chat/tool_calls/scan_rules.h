#pragma once
// What the tool-call parsers agree on while scanning model output.

namespace ingot::chat::tool_calls {

// How deep arguments may nest (objects, lists, tags) before a parser
// refuses them: bounds a parser's stack against runaway output.
inline constexpr int kMaxArgumentNesting = 64;

// A byte of an identifier: a letter, a digit or '_'.
inline bool is_identifier_byte(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

}  // namespace ingot::chat::tool_calls
