#pragma once
// Helpers for the grammar tests: compile a grammar or fail the test, and
// ask whether a whole text is a sentence of it.

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <string_view>

#include "sampling/grammar/gbnf_parser.h"
#include "sampling/grammar/grammar_matcher.h"

namespace ingot::sampling::grammar::testing {

inline std::shared_ptr<const Grammar> compile(std::string_view text) {
  auto grammar = parse_gbnf(text);
  EXPECT_TRUE(grammar.ok()) << grammar.error().describe();
  return grammar.ok() ? *grammar : nullptr;
}

// Whether `text` is a complete sentence (fed in one piece).
inline bool matches(const std::shared_ptr<const Grammar>& grammar, std::string_view text) {
  GrammarMatcher matcher(grammar);
  return matcher.accept_bytes(text) && matcher.can_end();
}

// The same, one byte at a time (crossing every UTF-8 boundary).
inline bool matches_bytewise(const std::shared_ptr<const Grammar>& grammar, std::string_view text) {
  GrammarMatcher matcher(grammar);
  for (char c : text) {
    if (!matcher.accept_bytes(std::string_view(&c, 1))) return false;
  }
  return matcher.can_end();
}

inline std::string parse_error(std::string_view text) {
  auto grammar = parse_gbnf(text);
  return grammar.ok() ? std::string("(parsed)") : grammar.error().message();
}

}  // namespace ingot::sampling::grammar::testing
