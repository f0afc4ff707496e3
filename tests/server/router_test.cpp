// Routes with a {name} segment: which paths they take and what the handler
// reads back.

#include "server/http/router.h"

#include <gtest/gtest.h>

namespace ingot::server {
namespace {

TEST(Router, APlainPatternMatchesOnlyItself) {
  EXPECT_TRUE(path_matches("/v1/models", "/v1/models"));
  EXPECT_FALSE(path_matches("/v1/models", "/v1/models/"));
  EXPECT_FALSE(path_matches("/v1/models", "/v1/model"));
}

TEST(Router, AParameterTakesOneNonEmptySegment) {
  const char* pattern = "/v1/responses/{id}";
  EXPECT_TRUE(path_matches(pattern, "/v1/responses/resp_1"));
  EXPECT_FALSE(path_matches(pattern, "/v1/responses/"));
  EXPECT_FALSE(path_matches(pattern, "/v1/responses"));
  EXPECT_FALSE(path_matches(pattern, "/v1/responses/resp_1/input_items"));
  EXPECT_FALSE(path_matches(pattern, "/v1/answers/resp_1"));
}

TEST(Router, SegmentsAfterAParameterMustMatch) {
  const char* pattern = "/v1/responses/{id}/input_items";
  EXPECT_TRUE(path_matches(pattern, "/v1/responses/resp_1/input_items"));
  EXPECT_FALSE(path_matches(pattern, "/v1/responses/resp_1/output_items"));
  EXPECT_FALSE(path_matches(pattern, "/v1/responses//input_items"));
}

TEST(Router, TheHandlerReadsTheParameterBack) {
  EXPECT_EQ(
      path_parameter("/v1/responses/{id}/input_items", "/v1/responses/resp_9/input_items", "id"),
      "resp_9");
  EXPECT_EQ(path_parameter("/v1/responses/{id}", "/v1/responses/resp_9", "other"), "");
}

TEST(Router, MethodsOfAParameterizedPathShareIt) {
  Router router;
  auto nothing = [](HttpExchange&) -> asio::awaitable<void> { co_return; };
  router.add({http::verb::get, "/v1/responses/{id}", nothing});
  router.add({http::verb::delete_, "/v1/responses/{id}", nothing});
  Router::Match get = router.match(http::verb::get, "/v1/responses/resp_1");
  EXPECT_NE(get.route, nullptr);
  Router::Match post = router.match(http::verb::post, "/v1/responses/resp_1");
  EXPECT_EQ(post.route, nullptr);
  EXPECT_TRUE(post.path_known);
  EXPECT_EQ(post.allowed, "GET, HEAD, DELETE");
  // HEAD is answered by the GET route.
  EXPECT_EQ(router.match(http::verb::head, "/v1/responses/resp_1").route, get.route);
}

}  // namespace
}  // namespace ingot::server
