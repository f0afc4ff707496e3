#include "util/duration.h"

#include <gtest/gtest.h>

namespace ingot {
namespace {

using std::chrono::milliseconds;

TEST(ParseDuration, ReadsEachUnitAndBareSeconds) {
  EXPECT_EQ(*parse_duration("30s"), milliseconds(30'000));
  EXPECT_EQ(*parse_duration("500ms"), milliseconds(500));
  EXPECT_EQ(*parse_duration("2m"), milliseconds(120'000));
  EXPECT_EQ(*parse_duration("1h"), milliseconds(3'600'000));
  EXPECT_EQ(*parse_duration("1.5"), milliseconds(1'500));
  EXPECT_EQ(*parse_duration("0"), milliseconds(0));
}

TEST(ParseDuration, RefusesWhatIsNotATime) {
  for (const char* text : {"", "s", "ten", "5 s", "5sec", "-1s", "1e300s", "nan", "3x"}) {
    auto parsed = parse_duration(text);
    EXPECT_FALSE(parsed.ok()) << text;
  }
  EXPECT_NE(parse_duration("3x").error().message().find("30s, 500ms"), std::string::npos);
}

}  // namespace
}  // namespace ingot
