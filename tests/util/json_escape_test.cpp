// The one JSON string escaper: what json.dumps and nlohmann write, with
// and without ensure_ascii, and pieces of UTF-8 passed through unread.

#include "util/json_escape.h"

#include <gtest/gtest.h>

namespace ingot {
namespace {

std::string ascii(std::string_view text) {
  std::string out;
  append_json_escaped(out, text, /*ensure_ascii=*/true);
  return out;
}

TEST(JsonEscape, QuotesBackslashesAndControlCharacters) {
  EXPECT_EQ(json_escaped("a\"b\\c"), "a\\\"b\\\\c");
  EXPECT_EQ(json_escaped("\n\r\t\b\f"), "\\n\\r\\t\\b\\f");
  EXPECT_EQ(json_escaped(std::string("\x01\x1f\x7f", 3)), "\\u0001\\u001f\x7f");
}

TEST(JsonEscape, EnsureAsciiWritesEverythingPastAsciiAsCodeUnits) {
  EXPECT_EQ(ascii("é\x7f"), "\\u00e9\\u007f");
  EXPECT_EQ(ascii("東"), "\\u6771");
  EXPECT_EQ(ascii("😀"), "\\ud83d\\ude00");
  EXPECT_EQ(json_escaped("é😀"), "é😀");
}

TEST(JsonEscape, APieceCutInsideACharacterPassesThrough) {
  const std::string e = "é";
  EXPECT_EQ(json_escaped(e.substr(0, 1)) + json_escaped(e.substr(1)), "é");
}

}  // namespace
}  // namespace ingot
