// A corpus of grammars with sentences they must accept and reject, each
// fed whole and byte by byte.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sampling/grammar/builtin.h"
#include "sampling/grammar_test_util.h"

namespace ingot::sampling::grammar {
namespace {

using testing::compile;
using testing::matches;
using testing::matches_bytewise;

struct Corpus {
  std::string grammar;
  std::vector<std::string> accepted;
  std::vector<std::string> rejected;
};

void check(const Corpus& corpus) {
  auto g = compile(corpus.grammar);
  ASSERT_NE(g, nullptr);
  for (const std::string& text : corpus.accepted) {
    EXPECT_TRUE(matches(g, text)) << "should accept: " << text;
    EXPECT_TRUE(matches_bytewise(g, text)) << "should accept byte by byte: " << text;
  }
  for (const std::string& text : corpus.rejected) {
    EXPECT_FALSE(matches(g, text)) << "should reject: " << text;
    EXPECT_FALSE(matches_bytewise(g, text)) << "should reject byte by byte: " << text;
  }
}

TEST(GrammarCorpus, Json) {
  check({std::string(kJsonValueGbnf),
         {R"({})", R"([])", R"({"a": 1, "b": [true, false, null], "c": {"d": "e"}})", R"("x")",
          "-0.5e+10", "12", "[\"\\u00e9\\n\\\"\", \"h\u00e9llo w\u00f6rld \xF0\x9F\x98\x80\"]",
          "{\n  \"k\": [1, 2.5]\n}\n", R"({"nested": [[[[[{"deep": []}]]]]]})"},
         {"", "{", R"({"a" 1})", R"({"a": 1,})", "[1 2]", "01", "1.", "tru", R"("\x")", "\"a\nb\"",
          R"({'a': 1})", "[1]]", "nul", "{\"a\":1}x", "\"\xC3\""}});
  check({std::string(kJsonObjectGbnf), {R"({"a": [1]})", "{ }"}, {"[1]", "1", R"("s")"}});
}

TEST(GrammarCorpus, Arithmetic) {
  check({R"g(root   ::= expr
expr   ::= term (ws ("+" | "-") ws term)*
term   ::= factor (ws ("*" | "/") ws factor)*
factor ::= number | "(" ws expr ws ")" | "-" factor
number ::= [0-9]+ ("." [0-9]+)?
ws     ::= " "*
)g",
         {"1", "1+2", "1 + 2 * 3", "(1+2)*3", "-(4.5 / -2)", "((((1))))", "2*(3+(4-5))/6"},
         {"", "+", "1+", "(1+2", "1+2)", "1..2", "*3", "1 2", "()"}});
}

TEST(GrammarCorpus, Lists) {
  check({R"g(root  ::= "[" (item ("," item){0,3})? "]"
item  ::= [a-z]+ | "'" [^']* "'"
)g",
         {"[]", "[a]", "[a,b,c,d]", "['x,y',z]", "['']"},
         {"[a,b,c,d,e]", "[,]", "[a,]", "a", "['x]", "[A]"}});
  check({R"g(root ::= ("- " line "\n")+
line ::= [^\n]+
)g",
         {"- milk\n",
          "- milk\n- eggs and bread\n- \xC3\xA9"
          "clair\n"},
         {"", "- \n", "- milk", "* milk\n"}});
}

TEST(GrammarCorpus, SmallCLikeLanguage) {
  check({R"g(root      ::= ws (function ws)*
function  ::= type " " name "(" params? ")" ws block
params    ::= type " " name ("," ws type " " name)*
type      ::= "int" | "void" | "char" "*"?
block     ::= "{" ws (statement ws)* "}"
statement ::= "return" (" " expr)? ";" | type " " name ws "=" ws expr ";" | name ws "=" ws expr ";"
            | "if" ws "(" expr ")" ws block (ws "else" ws block)? | "while" ws "(" expr ")" ws block | block
expr      ::= operand (ws op ws operand)*
operand   ::= name | [0-9]+ | "(" expr ")" | name "(" (expr ("," ws expr)*)? ")"
op        ::= "+" | "-" | "*" | "/" | "<" | "==" | "&&"
name      ::= [a-zA-Z_] [a-zA-Z0-9_]*
ws        ::= ([ \t\n] | "//" [^\n]* "\n")*
)g",
         {"", "int main() { return 0; }",
          "int add(int a, int b) {\n  // sum\n  int c = a + b;\n  return c;\n}\nvoid f() {}",
          "int g(int n) { while (n < 10) { n = n + 1; } if (n == 10) { return f(n, 2); } else { "
          "return; } }"},
         {"int main() { return 0 }", "int 1x() {}", "int f() { if n { } }", "int f( { }",
          "int f() { x = ; }", "float f() {}"}});
}

TEST(GrammarCorpus, PathologicalNesting) {
  auto g = compile(R"g(root ::= nest
nest ::= "(" nest ")" | "[" nest "]" | ""
)g");
  std::string deep = std::string(3000, '(') + std::string(3000, ')');
  EXPECT_TRUE(matches(g, deep));
  EXPECT_FALSE(matches(g, std::string(3000, '(') + std::string(2999, ')')));
  EXPECT_FALSE(matches(g, "(]"));
  // Deeper than the stack bound: refused, not a crash or a memory blow-up.
  EXPECT_FALSE(matches(g, std::string(kMaxStackDepth + 10, '(')));
}

TEST(GrammarCorpus, AmbiguityIsDeduplicated) {
  // Exponentially many parses, but only a handful of distinct stacks.
  auto g = compile(R"g(root ::= (a | b | "x")* "y"
a ::= "x" | "x" "x"
b ::= a a | "x"
)g");
  std::string xs(200, 'x');
  GrammarMatcher matcher(g);
  ASSERT_TRUE(matcher.accept_bytes(xs));
  EXPECT_LE(matcher.stacks().size(), 16u);
  EXPECT_TRUE(matcher.accept_bytes("y"));
  EXPECT_TRUE(matcher.must_end());
}

TEST(GrammarCorpus, TooManyStacksIsRefusedCleanly) {
  // Every 'a' may open another pending "b": the stack set keeps growing
  // until the bound refuses the text.
  auto g = compile(R"g(root ::= item*
item ::= "a" item? "b" | "a" [a-z]*
)g");
  GrammarMatcher matcher(g);
  std::string as(20000, 'a');
  bool refused = !matcher.accept_bytes(as);
  EXPECT_TRUE(refused || matcher.stacks().size() <= kMaxStacks);
}

}  // namespace
}  // namespace ingot::sampling::grammar
