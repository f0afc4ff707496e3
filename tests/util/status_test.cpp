#include "util/status.h"

#include <gtest/gtest.h>

namespace ingot {
namespace {

Result<int> parse_positive(int value) {
  if (value <= 0) return invalid_argument("not positive");
  return value;
}

Result<int> doubled(int value) {
  INGOT_ASSIGN_OR_RETURN(int parsed, parse_positive(value));
  return parsed * 2;
}

TEST(Status, DefaultIsOk) {
  EXPECT_TRUE(Status().ok());
}

TEST(Status, CarriesKindMessageAndContext) {
  Error error = invalid_format("bad magic");
  error.add_context("while reading a.gguf");
  Status status = error;
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.error().kind(), ErrorKind::kInvalidFormat);
  EXPECT_EQ(status.error().describe(), "bad magic (while reading a.gguf)");
}

TEST(Result, PropagatesThroughAssignOrReturn) {
  EXPECT_EQ(*doubled(4), 8);
  Result<int> failed = doubled(-1);
  ASSERT_FALSE(failed.ok());
  EXPECT_EQ(failed.error().message(), "not positive");
}

TEST(ErrorKind, EveryKindHasAName) {
  for (int k = 0; k <= static_cast<int>(ErrorKind::kInternal); ++k) {
    EXPECT_NE(error_kind_name(static_cast<ErrorKind>(k)), "unknown");
  }
}

}  // namespace
}  // namespace ingot
