#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "sampling/grammar/gbnf_parser.h"
#include "sampling/grammar_test_util.h"

namespace ingot::sampling::grammar {
namespace {

using testing::compile;
using ::testing::HasSubstr;
using testing::matches;
using testing::parse_error;
using ::testing::StartsWith;

TEST(GbnfParser, LiteralsWithEscapes) {
  auto g = compile(R"(root ::= "a\n\t\r\\\"\x41\u00e9\U0001F600")");
  EXPECT_TRUE(matches(g, "a\n\t\r\\\"A\xC3\xA9\xF0\x9F\x98\x80"));
  EXPECT_FALSE(matches(g, "a\n\t\r\\\"A"));
}

TEST(GbnfParser, CharacterClassesRangesAndNegation) {
  auto g = compile(R"(root ::= [a-cx] [^0-9\]] [\-] .)");
  EXPECT_TRUE(matches(g, "b]-z") == false);  // ']' is negated away
  EXPECT_TRUE(matches(g, "bq-z"));
  EXPECT_TRUE(matches(g, "x\xC3\xA9-\xE2\x82\xAC"));
  EXPECT_FALSE(matches(g, "d!-z"));
  EXPECT_FALSE(matches(g, "a5-z"));
}

TEST(GbnfParser, RepetitionOperators) {
  auto g = compile(R"(root ::= "a"* "b"+ "c"? "d"{2} "e"{1,} "f"{1,3} "g"{,2})");
  EXPECT_TRUE(matches(g, "bddef"));
  EXPECT_TRUE(matches(g, "aaabbbcddeeefffgg"));
  EXPECT_FALSE(matches(g, "ddef"));      // no b
  EXPECT_FALSE(matches(g, "bdef"));      // one d
  EXPECT_FALSE(matches(g, "bddf"));      // no e
  EXPECT_FALSE(matches(g, "bdde"));      // no f
  EXPECT_FALSE(matches(g, "bddeffff"));  // four f
  EXPECT_FALSE(matches(g, "bddefggg"));  // three g
  EXPECT_FALSE(matches(g, "bccddef"));   // two c
}

TEST(GbnfParser, RepetitionAppliesToWholeLiteralAndGroup) {
  auto g = compile(R"(root ::= "ab"{2} ("x" | "yz")+)");
  EXPECT_TRUE(matches(g, "ababyzx"));
  EXPECT_FALSE(matches(g, "abbx"));
}

TEST(GbnfParser, CommentsNewlinesAndContinuationLines) {
  auto g = compile(R"(# a comment
root ::= # after the operator
  item
  | "none"   # an alternative on its own line
item ::= (
    "x"
    "y"
  )
)");
  EXPECT_TRUE(matches(g, "xy"));
  EXPECT_TRUE(matches(g, "none"));
  EXPECT_FALSE(matches(g, "x"));
}

TEST(GbnfParser, RulesMayBeUsedBeforeDefinitionAndOtherRoot) {
  auto g = parse_gbnf("start ::= a b\nb ::= \"2\"\na ::= \"1\"", "start");
  ASSERT_TRUE(g.ok()) << g.error().describe();
  EXPECT_TRUE(matches(*g, "12"));
}

TEST(GbnfParser, EmptyAlternativeAndEmptyLiteral) {
  auto g = compile(R"(root ::= "a" | "" )");
  EXPECT_TRUE(matches(g, ""));
  EXPECT_TRUE(matches(g, "a"));
  auto e = compile(R"(root ::= ""* "x")");
  EXPECT_TRUE(matches(e, "x"));
}

TEST(GbnfParser, ToStringRoundTrips) {
  auto g = compile(R"(root ::= ("a" | [b-d])* "\n")");
  auto again = compile(g->to_string());
  ASSERT_NE(again, nullptr) << g->to_string();
  EXPECT_TRUE(matches(again, "abd\n"));
  EXPECT_FALSE(matches(again, "e\n"));
}

TEST(GbnfParserErrors, PositionedReasons) {
  EXPECT_EQ(parse_error("root ::= foo"), "1:10: undefined rule 'foo'");
  EXPECT_EQ(parse_error("a ::= \"x\""), "1:1: no rule named 'root'");
  EXPECT_EQ(parse_error("root ::= \"abc"), "1:10: unterminated string literal");
  EXPECT_EQ(parse_error("root ::= [abc"), "1:10: unterminated character class");
  EXPECT_EQ(parse_error("root ::= \"\\q\""), "1:11: unknown escape '\\q'");
  EXPECT_EQ(parse_error("root ::= \"\\x4\""), "1:11: escape needs 2 hex digits");
  EXPECT_EQ(parse_error("root ::= \"a\"{3,2}"), "1:13: repetition maximum is below its minimum");
  EXPECT_EQ(parse_error("root ::=\n  (\"a\" | \"b\""), "2:3: unclosed '('");
  EXPECT_EQ(parse_error("root ::= \"a\" )"), "1:14: unexpected ')'");
  EXPECT_EQ(parse_error("root ::= [z-a]"), "1:13: character range is backwards");
  EXPECT_EQ(parse_error("root ::= []"), "1:10: empty character class");
  EXPECT_EQ(parse_error("root = \"a\""), "1:6: expected '::=' after rule name 'root'");
  EXPECT_EQ(parse_error("root ::= \"a\"\nroot ::= \"b\""), "2:1: rule 'root' is defined twice");
  EXPECT_EQ(parse_error("root ::= <[12]>"), "1:10: token references (<...>) are not supported");
  EXPECT_EQ(parse_error("root ::= \"a\" ; \"b\""), "1:14: unexpected character ';'");
  EXPECT_EQ(parse_error("::= \"a\""), "1:1: expected a rule name");
  EXPECT_EQ(parse_error(""), "1:1: no rule named 'root'");
}

TEST(GbnfParserErrors, LeftRecursionIsRejected) {
  EXPECT_EQ(parse_error("root ::= expr\nexpr ::= expr \"+\" num | num\nnum ::= [0-9]+"),
            "2:1: rule 'expr' is left-recursive (expr -> expr)");
  EXPECT_THAT(parse_error("root ::= a\na ::= b \"x\" | \"y\"\nb ::= c? a\nc ::= \"c\""),
              HasSubstr("is left-recursive"));
  // Repeating something that can match nothing would loop forever.
  EXPECT_THAT(parse_error("root ::= (\"a\"?)*"),
              AllOf(StartsWith("1:16: "), HasSubstr("left-recursive")));
}

TEST(GbnfParserErrors, RulesThatCanNeverComplete) {
  EXPECT_EQ(parse_error("root ::= \"(\" root \")\""),
            "1:1: rule 'root' can never complete: every alternative recurses without end");
}

TEST(GbnfParserErrors, HostileSizesFailCleanly) {
  EXPECT_THAT(parse_error("root ::= \"a\"{100000}"), HasSubstr("repetition count above"));
  std::string bounded_many = "root ::=";
  for (int i = 0; i < 30; ++i) bounded_many += " \"x\"{0,9999}";
  EXPECT_THAT(parse_error(bounded_many), HasSubstr("too large"));
  EXPECT_THAT(parse_error("root ::= " + std::string(5000, '(') + std::string(5000, ')')),
              HasSubstr("nested deeper"));
  // Each level doubles the ways to match nothing: 2^40 paths at the start.
  std::string doubling = "root ::= r0 \"x\"\n";
  for (int i = 0; i < 40; ++i) {
    doubling += fmt::format("r{0} ::= r{1} r{1} | \"\"\n", i, i + 1);
  }
  doubling += "r40 ::= \"\" | \"y\"\n";
  EXPECT_THAT(parse_error(doubling), HasSubstr("too ambiguous"));
}

TEST(GbnfParserErrors, InvalidUtf8InGrammar) {
  EXPECT_EQ(parse_error("root ::= \"\xFF\""), "1:11: invalid UTF-8");
}

// Forty thousand rules, each naming the next: parsed and checked in time
// linear in their number.
TEST(GbnfParser, FortyThousandChainedRulesCompile) {
  std::string text = "root ::= r0\n";
  for (int i = 0; i < 40'000; ++i) {
    text += "r" + std::to_string(i) + " ::= \"a\" " +
            (i + 1 < 40'000 ? "r" + std::to_string(i + 1) : std::string("\"!\"")) + "\n";
  }
  auto grammar = parse_gbnf(text);
  ASSERT_TRUE(grammar.ok()) << grammar.error().describe();
}

}  // namespace
}  // namespace ingot::sampling::grammar
