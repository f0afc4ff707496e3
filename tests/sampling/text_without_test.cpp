// gbnf_text_without: any text that never holds a closing marker, exactly
// (a parser that reads up to the marker sees the text the grammar allowed).

#include <gtest/gtest.h>

#include "grammar_test_util.h"
#include "sampling/grammar/gbnf_text.h"

namespace ingot::sampling::grammar {
namespace {

using testing::compile;
using testing::matches;
using testing::matches_bytewise;

std::shared_ptr<const Grammar> text_then(std::string_view close) {
  std::string rules;
  std::string start = gbnf_text_without(close, "text", [&](std::string name, std::string body) {
    rules += name + " ::= " + body + "\n";
  });
  return compile("root ::= " + start + " " + gbnf_literal(close) + "\n" + rules);
}

TEST(TextWithout, TheTextEndsAtTheFirstClose) {
  auto g = text_then("</think>");
  EXPECT_TRUE(matches(g, "</think>"));
  EXPECT_TRUE(matches(g, "a < b, </thin k <</think>"));
  EXPECT_TRUE(matches_bytewise(g, "é <</ </think>"));
  EXPECT_FALSE(matches(g, "a</think>b</think>"));
  EXPECT_FALSE(matches(g, "<</think></think>"));
  EXPECT_FALSE(matches(g, "no close"));
}

// A close whose start repeats inside it (as "\n</parameter>" after a
// newline, or "aab" after "aa") is found however it overlaps.
TEST(TextWithout, OverlappingStartsAreFollowed) {
  auto g = text_then("aab");
  EXPECT_TRUE(matches(g, "aaab"));
  EXPECT_TRUE(matches(g, "abaaab"));
  EXPECT_FALSE(matches(g, "aabaab"));
  EXPECT_FALSE(matches(g, "aaabxaab"));
  auto tag = text_then("\n</parameter>");
  EXPECT_TRUE(matches(tag, "line\n\n</param\n</parameter>"));
  EXPECT_FALSE(matches(tag, "x\n</parameter>y\n</parameter>"));
}

}  // namespace
}  // namespace ingot::sampling::grammar
