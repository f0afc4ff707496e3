#include "sampling/grammar/grammar_matcher.h"

#include <gtest/gtest.h>

#include "sampling/grammar_test_util.h"

namespace ingot::sampling::grammar {
namespace {

using testing::compile;

TEST(GrammarMatcher, RejectedBytesLeaveTheStateUnchanged) {
  GrammarMatcher m(compile(R"(root ::= "ab" | "ac")"));
  ASSERT_TRUE(m.accept_bytes("a"));
  auto before = m.stacks();
  EXPECT_FALSE(m.accept_bytes("bx"));  // "b" fine, "x" not: all or nothing
  EXPECT_EQ(m.stacks(), before);
  EXPECT_TRUE(m.accept_bytes("c"));
  EXPECT_TRUE(m.must_end());
}

TEST(GrammarMatcher, CanEndVersusMustEnd) {
  GrammarMatcher m(compile(R"(root ::= "a"+)"));
  EXPECT_FALSE(m.can_end());
  ASSERT_TRUE(m.accept_bytes("a"));
  EXPECT_TRUE(m.can_end());
  EXPECT_FALSE(m.must_end());
  GrammarMatcher fixed(compile(R"(root ::= "a")"));
  ASSERT_TRUE(fixed.accept_bytes("a"));
  EXPECT_TRUE(fixed.must_end());
  EXPECT_FALSE(fixed.accept_bytes("a"));
}

TEST(GrammarMatcher, BytesEndingMidCharacter) {
  GrammarMatcher m(compile(R"(root ::= [é-ë] "!")"));
  // é is C3 A9; the lead byte alone is allowed because a completion fits.
  ASSERT_TRUE(m.accept_bytes("\xC3"));
  EXPECT_FALSE(m.can_end());
  EXPECT_FALSE(m.accept_bytes("\xA0"));  // à: outside the class
  EXPECT_FALSE(m.accept_bytes("!"));     // not a continuation byte
  ASSERT_TRUE(m.accept_bytes("\xAA"));   // ê
  EXPECT_TRUE(m.accept_bytes("!"));
  EXPECT_TRUE(m.must_end());
}

TEST(GrammarMatcher, LeadBytesWithoutAPossibleCompletionAreRefused) {
  GrammarMatcher m(compile(R"(root ::= [a-z\u00e9])"));
  EXPECT_FALSE(m.accept_bytes("\xE2"));      // three-byte characters: none allowed
  EXPECT_FALSE(m.accept_bytes("\xC4"));      // U+0100-U+013F: none allowed
  EXPECT_FALSE(m.accept_bytes("\x80"));      // a stray continuation byte
  EXPECT_FALSE(m.accept_bytes("\xC0\x80"));  // overlong NUL
  EXPECT_TRUE(m.accept_bytes("\xC3"));
}

TEST(GrammarMatcher, SurrogatesAndOverlongFormsAreRefused) {
  GrammarMatcher m(compile(R"(root ::= .*)"));
  EXPECT_FALSE(m.accept_bytes("\xED\xA0\x80"));      // U+D800
  EXPECT_FALSE(m.accept_bytes("\xE0\x80\xAF"));      // overlong '/'
  EXPECT_FALSE(m.accept_bytes("\xF4\x90\x80\x80"));  // above U+10FFFF
  EXPECT_TRUE(m.accept_bytes("\xF0\x9F\x98\x80"));
}

// Ten nested optionals in a row: each can match nothing along four paths,
// so 4^10 paths lead from the start to "b". One expansion per state keeps
// that to a few dozen steps, far inside the bounds.
std::string nested_optionals(int count) {
  std::string gbnf = "root ::=";
  for (int i = 0; i < count; ++i) gbnf += R"( ((("a"?)?)?)?)";
  return gbnf + R"( "b")";
}

TEST(GrammarMatcher, PathsThatMeetAreExpandedOnce) {
  auto grammar = compile(nested_optionals(10));
  EXPECT_TRUE(testing::matches(grammar, "b"));
  EXPECT_TRUE(testing::matches(grammar, "aaab"));
  EXPECT_TRUE(testing::matches_bytewise(grammar, "aaaaaaaaaab"));
  EXPECT_FALSE(testing::matches(grammar, "aaaaaaaaaaab"));  // eleven: one too many
}

TEST(GrammarMatcher, CopiesAreIndependent) {
  GrammarMatcher a(compile(R"(root ::= "x" ("y" | "z"))"));
  ASSERT_TRUE(a.accept_bytes("x"));
  GrammarMatcher b = a;
  ASSERT_TRUE(b.accept_bytes("y"));
  EXPECT_TRUE(b.must_end());
  EXPECT_FALSE(a.can_end());
  EXPECT_TRUE(a.accept_bytes("z"));
}

}  // namespace
}  // namespace ingot::sampling::grammar
