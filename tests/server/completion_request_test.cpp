#include "server/openai/completion_request.h"

#include <gtest/gtest.h>

namespace ingot::server {
namespace {

using json = nlohmann::ordered_json;

RequestLimits limits() { return {{"m"}, 100}; }

json minimal() { return {{"model", "m"}, {"prompt", "Once upon a time"}}; }

TEST(CompletionRequest, DefaultsAndLegacyLogprobs) {
  auto result = parse_completion_request(minimal(), limits());
  ASSERT_TRUE(std::holds_alternative<CompletionRequest>(result));
  const auto& request = std::get<CompletionRequest>(result);
  EXPECT_EQ(request.prompt, "Once upon a time");
  EXPECT_EQ(*request.max_tokens, kDefaultCompletionMaxTokens);

  json with_logprobs = minimal();
  with_logprobs["logprobs"] = 3;
  auto logprobs = std::get<CompletionRequest>(parse_completion_request(with_logprobs, limits()));
  EXPECT_TRUE(logprobs.logprobs);
  EXPECT_EQ(logprobs.top_logprobs, 3);
}

TEST(CompletionRequest, PromptRules) {
  json one_item = minimal();
  one_item["prompt"] = {"text"};
  EXPECT_TRUE(std::holds_alternative<CompletionRequest>(parse_completion_request(one_item, limits())));
  for (json prompt : {json(nullptr), json(""), json({"a", "b"}), json(5)}) {
    json body = minimal();
    body["prompt"] = prompt;
    auto result = parse_completion_request(body, limits());
    ASSERT_TRUE(std::holds_alternative<ApiError>(result)) << prompt.dump();
    EXPECT_EQ(std::get<ApiError>(result).param, "prompt");
  }
}

TEST(CompletionRequest, UnsupportedFieldsAreRefused) {
  for (const char* field : {"echo", "suffix"}) {
    json body = minimal();
    body[field] = field == std::string("echo") ? json(true) : json("x");
    auto result = parse_completion_request(body, limits());
    ASSERT_TRUE(std::holds_alternative<ApiError>(result)) << field;
    EXPECT_EQ(std::get<ApiError>(result).param, field);
  }
}

}  // namespace
}  // namespace ingot::server
