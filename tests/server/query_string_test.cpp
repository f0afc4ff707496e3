// Query parameters as the list routes read them.

#include "server/http/query_string.h"

#include <gtest/gtest.h>

namespace ingot::server {
namespace {

TEST(QueryString, FindsANamedParameterAndDecodesIt) {
  const char* target = "/v1/x?limit=5&after=msg%5F1&order=a+b";
  EXPECT_EQ(query_parameter(target, "limit"), "5");
  EXPECT_EQ(query_parameter(target, "after"), "msg_1");
  EXPECT_EQ(query_parameter(target, "order"), "a b");
  EXPECT_EQ(query_parameter(target, "missing"), std::nullopt);
}

TEST(QueryString, NoQueryOrABrokenEscapeGivesNothing) {
  EXPECT_EQ(query_parameter("/v1/x", "limit"), std::nullopt);
  EXPECT_EQ(query_parameter("/v1/x?limit=%4", "limit"), std::nullopt);
  EXPECT_EQ(query_parameter("/v1/x?limit=%zz", "limit"), std::nullopt);
  EXPECT_EQ(query_parameter("/v1/x?limit", "limit"), "");
}

}  // namespace
}  // namespace ingot::server
