// JsonValueScanner: where a value ends, what is invalid, which bytes a
// compact rendering keeps.

#include "chat/tool_calls/json_value_scanner.h"

#include <gtest/gtest.h>

#include <string>

namespace ingot::chat::tool_calls {
namespace {

using Status = JsonValueScanner::Status;

struct Scan {
  Status status = Status::kIncomplete;
  size_t end = 0;  // bytes that belong to the value
  std::string compact;
};

Scan scan(std::string_view text) {
  JsonValueScanner scanner;
  Scan result;
  for (size_t i = 0; i < text.size(); ++i) {
    JsonValueScanner::Step step = scanner.feed(text[i]);
    if (step.consumed && step.significant) result.compact.push_back(text[i]);
    if (step.status != Status::kIncomplete) {
      result.status = step.status;
      result.end = step.consumed ? i + 1 : i;
      return result;
    }
  }
  result.status = scanner.finish();
  result.end = text.size();
  return result;
}

TEST(JsonValueScanner, FindsTheEndOfAValue) {
  EXPECT_EQ(scan(R"({"a": [1, "}"]} tail)").end, 15u);
  EXPECT_EQ(scan(R"({"a": [1, "}"]} tail)").status, Status::kComplete);
  EXPECT_EQ(scan("\"x\\\"y\" more").end, 6u);
  EXPECT_EQ(scan("123,").end, 3u);
  EXPECT_EQ(scan("123,").status, Status::kComplete);
  EXPECT_EQ(scan("-0.5e+3").status, Status::kComplete);
  EXPECT_EQ(scan("true").status, Status::kComplete);
  EXPECT_EQ(scan("{\"a\": 1").status, Status::kIncomplete);
}

TEST(JsonValueScanner, RejectsWhatIsNotJson) {
  for (std::string_view bad :
       {"{a: 1}", "{\"a\" 1}", "[1,]x", "{\"a\": 1,}", "[1 2]", "01,", "tru,", "\"\\x\"",
        "\"a\nb\"", "{]", "[}", "}", "nul!", "\"\\u12g4\""}) {
    EXPECT_EQ(scan(bad).status, Status::kInvalid) << bad;
  }
}

TEST(JsonValueScanner, CompactDropsSpaceOutsideStringsOnly) {
  EXPECT_EQ(scan("{ \"a b\" :\n [ 1 , \"c  d\" ] }").compact, R"({"a b":[1,"c  d"]})");
}

}  // namespace
}  // namespace ingot::chat::tool_calls
