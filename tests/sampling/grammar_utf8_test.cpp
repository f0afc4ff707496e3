#include <gtest/gtest.h>

#include "sampling/grammar/grammar_matcher.h"
#include "sampling/grammar/utf8.h"
#include "sampling/grammar_test_util.h"

namespace ingot::sampling::grammar {
namespace {

// A token may end after "\xED\xA1": every completion of it is a surrogate,
// so a matcher that took it would be left with no next token at all (seen
// with a json_object grammar on the Qwen vocabulary).
TEST(GrammarUtf8, PrefixesThatCanOnlyBecomeSurrogatesAreRefused) {
  GrammarMatcher m(testing::compile(R"(root ::= .*)"));
  EXPECT_FALSE(m.accept_bytes("\xED\xA1"));
  EXPECT_FALSE(m.accept_bytes("\xED\xBF"));
  EXPECT_TRUE(m.accept_bytes("\xED"));  // U+D000-U+D7FF are still possible
  EXPECT_TRUE(m.accept_bytes("\x9F"));
  EXPECT_TRUE(m.accept_bytes("\xBF"));  // U+D7FF
  EXPECT_TRUE(m.can_end());
}

TEST(GrammarUtf8, PartialRangeOfASurrogatePrefixIsEmpty) {
  char32_t first = 0;
  char32_t last = 0;
  PartialUtf8 surrogate{(0xD << 6) | 0x21, 1, 3};  // ED A1
  EXPECT_FALSE(partial_range(surrogate, first, last));
  PartialUtf8 hangul{(0xD << 6) | 0x1F, 1, 3};  // ED 9F
  ASSERT_TRUE(partial_range(hangul, first, last));
  EXPECT_EQ(first, 0xD7C0u);
  EXPECT_EQ(last, 0xD7FFu);
}

}  // namespace
}  // namespace ingot::sampling::grammar
