#include "util/utf8.h"

#include <gtest/gtest.h>

namespace ingot::utf8 {
namespace {

TEST(Utf8, ValidatesWellFormedText) {
  EXPECT_TRUE(is_valid(""));
  EXPECT_TRUE(is_valid("plain ascii"));
  EXPECT_TRUE(is_valid("h\xC3\xA9llo \xE4\xB8\xAD \xF0\x9F\x98\x80"));
}

TEST(Utf8, RejectsMalformedText) {
  EXPECT_FALSE(is_valid("\x80"));              // lone continuation
  EXPECT_FALSE(is_valid("\xC0\xAF"));          // overlong
  EXPECT_FALSE(is_valid("\xED\xA0\x80"));      // surrogate
  EXPECT_FALSE(is_valid("\xF4\x90\x80\x80"));  // past U+10FFFF
  EXPECT_FALSE(is_valid("\xE4\xB8"));          // truncated
}

TEST(Utf8, CompletePrefixHoldsBackOnlyAnUnfinishedTail) {
  EXPECT_EQ(complete_prefix_length("ab"), 2u);
  EXPECT_EQ(complete_prefix_length("a\xE4\xB8"), 1u);
  EXPECT_EQ(complete_prefix_length("a\xE4\xB8\xAD"), 4u);
  EXPECT_EQ(complete_prefix_length("a\xF0\x9F\x98"), 1u);
  // A byte that can never start a sequence is not held back.
  EXPECT_EQ(complete_prefix_length("a\xFF"), 2u);
  // A tail that already cannot complete is not held back either.
  EXPECT_EQ(complete_prefix_length("a\xE0\x80"), 3u);
}

TEST(Utf8, DecodeAndAppendRoundTrip) {
  for (char32_t cp : {U'a', U'\u00E9', U'\u4E2D', U'\U0001F600', U'\U0010FFFF'}) {
    std::string encoded;
    append(encoded, cp);
    size_t pos = 0;
    EXPECT_EQ(decode(encoded, pos), cp);
    EXPECT_EQ(pos, encoded.size());
  }
}

TEST(Utf8, DecodeReplacesInvalidBytes) {
  std::string text = "\xFFx";
  size_t pos = 0;
  EXPECT_EQ(decode(text, pos), U'\uFFFD');
  EXPECT_EQ(pos, 1u);
}

}  // namespace
}  // namespace ingot::utf8
