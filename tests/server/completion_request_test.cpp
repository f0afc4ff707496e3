#include "server/openai/completion_request.h"

#include <gtest/gtest.h>

namespace ingot::server {
namespace {

using json = nlohmann::ordered_json;

RequestLimits completion_limits() {
  return {{"m"}, 100};
}

json minimal_completion() {
  return {{"model", "m"}, {"prompt", "Once upon a time"}};
}

TEST(CompletionRequest, DefaultsAndLegacyLogprobs) {
  auto result = parse_completion_request(minimal_completion(), completion_limits());
  ASSERT_TRUE(std::holds_alternative<CompletionRequest>(result));
  const auto& request = std::get<CompletionRequest>(result);
  EXPECT_EQ(request.prompt, "Once upon a time");
  EXPECT_EQ(*request.max_tokens, kDefaultCompletionMaxTokens);

  json with_logprobs = minimal_completion();
  with_logprobs["logprobs"] = 3;
  auto logprobs =
      std::get<CompletionRequest>(parse_completion_request(with_logprobs, completion_limits()));
  EXPECT_TRUE(logprobs.logprobs);
  EXPECT_EQ(logprobs.top_logprobs, 3);
}

TEST(CompletionRequest, PromptRules) {
  json one_item = minimal_completion();
  one_item["prompt"] = {"text"};
  EXPECT_TRUE(std::holds_alternative<CompletionRequest>(
      parse_completion_request(one_item, completion_limits())));
  for (json prompt : {json(nullptr), json(""), json({"a", "b"}), json(5)}) {
    json body = minimal_completion();
    body["prompt"] = prompt;
    auto result = parse_completion_request(body, completion_limits());
    ASSERT_TRUE(std::holds_alternative<ApiError>(result)) << prompt.dump();
    EXPECT_EQ(std::get<ApiError>(result).param, "prompt");
  }
}

TEST(CompletionRequest, UnsupportedFieldsAreRefused) {
  json body = minimal_completion();
  body["suffix"] = "x";
  auto result = parse_completion_request(body, completion_limits());
  ASSERT_TRUE(std::holds_alternative<ApiError>(result));
  EXPECT_EQ(std::get<ApiError>(result).param, "suffix");
}

CompletionRequest accepted_completion(const json& body) {
  auto result = parse_completion_request(body, completion_limits());
  if (auto* error = std::get_if<ApiError>(&result)) {
    ADD_FAILURE() << error->message;
    return {};
  }
  return std::get<CompletionRequest>(result);
}

TEST(CompletionRequest, GrammarAndResponseFormatAreRead) {
  json with_grammar = minimal_completion();
  with_grammar["grammar"] = "root ::= \"a\"";
  EXPECT_EQ(accepted_completion(with_grammar).grammar, "root ::= \"a\"");
  json with_format = minimal_completion();
  with_format["response_format"] = {{"type", "json_object"}};
  EXPECT_EQ(accepted_completion(with_format).response_format.kind,
            ResponseFormat::Kind::kJsonObject);
  with_format["grammar"] = "root ::= \"a\"";
  auto both = parse_completion_request(with_format, completion_limits());
  ASSERT_TRUE(std::holds_alternative<ApiError>(both));
  EXPECT_EQ(std::get<ApiError>(both).param, "grammar");
}

// lm-evaluation-harness scores a continuation with echo, logprobs and no
// (or one) generated token, the prompt given as text or token ids.
TEST(CompletionRequest, EchoScoringAsEvaluationHarnessesSendIt) {
  json body = minimal_completion();
  body["echo"] = true;
  body["logprobs"] = 10;
  body["max_tokens"] = 0;
  body["temperature"] = 0;
  CompletionRequest request = accepted_completion(body);
  EXPECT_TRUE(request.echo);
  EXPECT_EQ(*request.max_tokens, 0);
  EXPECT_EQ(request.top_logprobs, 10);

  body["prompt"] = {{1, 415, 2936}};
  request = accepted_completion(body);
  EXPECT_TRUE(request.prompt.empty());
  EXPECT_EQ(request.prompt_ids, (std::vector<int32_t>{1, 415, 2936}));
  body["prompt"] = {1, 415};
  EXPECT_EQ(accepted_completion(body).prompt_ids, (std::vector<int32_t>{1, 415}));

  for (json prompt : {json::array({json::array()}), json::array({1, -2}), json::array({1, 2.5}),
                      json::array({json::array({1}), json::array({2})})}) {
    body["prompt"] = prompt;
    auto result = parse_completion_request(body, completion_limits());
    ASSERT_TRUE(std::holds_alternative<ApiError>(result)) << prompt.dump();
    EXPECT_EQ(std::get<ApiError>(result).param, "prompt");
  }
  json too_many = minimal_completion();
  too_many["logprobs"] = 21;
  EXPECT_TRUE(
      std::holds_alternative<ApiError>(parse_completion_request(too_many, completion_limits())));
  json negative = minimal_completion();
  negative["max_tokens"] = -1;
  EXPECT_TRUE(
      std::holds_alternative<ApiError>(parse_completion_request(negative, completion_limits())));
}

}  // namespace
}  // namespace ingot::server
