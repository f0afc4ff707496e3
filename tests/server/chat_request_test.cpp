#include "server/openai/chat_request.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace ingot::server {
namespace {

using json = nlohmann::ordered_json;

RequestLimits limits() {
  return {{"ingot-model", "alias"}, 4096};
}

json minimal() {
  return {{"model", "ingot-model"}, {"messages", {{{"role", "user"}, {"content", "hi"}}}}};
}

ApiError refused(const json& body) {
  auto result = parse_chat_request(body, limits());
  EXPECT_TRUE(std::holds_alternative<ApiError>(result)) << body.dump();
  return std::holds_alternative<ApiError>(result) ? std::get<ApiError>(result) : ApiError{};
}

ChatRequest accepted(const json& body) {
  auto result = parse_chat_request(body, limits());
  if (auto* error = std::get_if<ApiError>(&result)) {
    ADD_FAILURE() << error->message;
    return {};
  }
  return std::get<ChatRequest>(result);
}

json with(json body, const std::string& key, json value) {
  body[key] = std::move(value);
  return body;
}

TEST(ChatRequest, MinimalRequestIsAccepted) {
  ChatRequest request = accepted(minimal());
  EXPECT_EQ(request.model, "ingot-model");
  EXPECT_EQ(request.messages.size(), 1u);
  EXPECT_FALSE(request.max_tokens.has_value());
  EXPECT_FALSE(request.stream);
}

TEST(ChatRequest, AliasIsAcceptedAndUnknownModelIs404) {
  EXPECT_EQ(accepted(with(minimal(), "model", "alias")).model, "alias");
  ApiError error = refused(with(minimal(), "model", "gpt-9"));
  EXPECT_EQ(error.status, 404);
  EXPECT_EQ(error.code, "model_not_found");
  EXPECT_EQ(error.param, "model");
}

TEST(ChatRequest, MessagesMustBeANonEmptyListOfKnownRoles) {
  EXPECT_EQ(refused(with(minimal(), "messages", json::array())).param, "messages");
  EXPECT_EQ(refused(with(minimal(), "messages", "hi")).param, "messages");
  json bad_role = with(minimal(), "messages", {{{"role", "wizard"}, {"content", "x"}}});
  EXPECT_NE(refused(bad_role).message.find("wizard"), std::string::npos);
}

TEST(ChatRequest, ContentPartsOnlyText) {
  json parts = {{{"type", "text"}, {"text", "a"}}, {{"type", "text"}, {"text", "b"}}};
  accepted(with(minimal(), "messages", {{{"role", "user"}, {"content", parts}}}));
  json image = {{{"type", "image_url"}, {"image_url", {{"url", "data:,"}}}}};
  ApiError error = refused(with(minimal(), "messages", {{{"role", "user"}, {"content", image}}}));
  EXPECT_NE(error.message.find("image_url"), std::string::npos);
}

TEST(ChatRequest, AssistantToolCallsAndToolResults) {
  json messages = {
      {{"role", "user"}, {"content", "weather?"}},
      {{"role", "assistant"},
       {"content", nullptr},
       {"tool_calls",
        {{{"id", "call_1"},
          {"type", "function"},
          {"function", {{"name", "get_weather"}, {"arguments", "{\"city\":\"Paris\"}"}}}}}}},
      {{"role", "tool"}, {"tool_call_id", "call_1"}, {"content", "sunny"}}};
  accepted(with(minimal(), "messages", messages));
  messages[2].erase("tool_call_id");
  refused(with(minimal(), "messages", messages));
}

TEST(ChatRequest, MaxTokensRules) {
  EXPECT_EQ(*accepted(with(minimal(), "max_tokens", 16)).max_tokens, 16);
  EXPECT_EQ(*accepted(with(minimal(), "max_completion_tokens", 8)).max_tokens, 8);
  EXPECT_EQ(refused(with(minimal(), "max_tokens", true)).param, "max_tokens");
  EXPECT_EQ(refused(with(minimal(), "max_tokens", 0)).param, "max_tokens");
  EXPECT_EQ(refused(with(minimal(), "max_tokens", 2.5)).param, "max_tokens");
  EXPECT_EQ(refused(with(minimal(), "max_tokens", 4097)).param, "max_tokens");
  json both = with(with(minimal(), "max_tokens", 5), "max_completion_tokens", 6);
  EXPECT_EQ(refused(both).param, "max_completion_tokens");
  accepted(with(with(minimal(), "max_tokens", 6), "max_completion_tokens", 6));
}

TEST(ChatRequest, SamplingRanges) {
  EXPECT_EQ(refused(with(minimal(), "temperature", 2.5)).param, "temperature");
  EXPECT_EQ(refused(with(minimal(), "temperature", "hot")).param, "temperature");
  EXPECT_EQ(refused(with(minimal(), "top_p", 0)).param, "top_p");
  EXPECT_EQ(refused(with(minimal(), "frequency_penalty", -3)).param, "frequency_penalty");
  EXPECT_EQ(refused(with(minimal(), "top_k", -1)).param, "top_k");
  ChatRequest request = accepted(with(with(minimal(), "temperature", 0), "seed", 42));
  EXPECT_EQ(*request.temperature, 0.0f);
  EXPECT_EQ(*request.seed, 42u);
}

TEST(ChatRequest, StopIsAStringOrUpToFourStrings) {
  EXPECT_EQ(accepted(with(minimal(), "stop", "END")).stop, std::vector<std::string>{"END"});
  EXPECT_EQ(accepted(with(minimal(), "stop", {"a", "b"})).stop.size(), 2u);
  EXPECT_EQ(refused(with(minimal(), "stop", {"a", "b", "c", "d", "e"})).param, "stop");
  EXPECT_EQ(refused(with(minimal(), "stop", {"a", ""})).param, "stop");
  EXPECT_EQ(refused(with(minimal(), "stop", 5)).param, "stop");
}

TEST(ChatRequest, StreamOptions) {
  json body = with(with(minimal(), "stream", true), "stream_options", {{"include_usage", true}});
  EXPECT_TRUE(accepted(body).include_usage);
  EXPECT_EQ(refused(with(minimal(), "stream_options", {{"include_usage", true}})).param,
            "stream_options");
  EXPECT_EQ(refused(with(minimal(), "stream", "yes")).param, "stream");
}

TEST(ChatRequest, Logprobs) {
  EXPECT_EQ(accepted(with(with(minimal(), "logprobs", true), "top_logprobs", 5)).top_logprobs, 5);
  EXPECT_EQ(refused(with(minimal(), "top_logprobs", 5)).param, "top_logprobs");
  EXPECT_EQ(refused(with(with(minimal(), "logprobs", true), "top_logprobs", 21)).param,
            "top_logprobs");
}

TEST(ChatRequest, LogitBias) {
  auto bias = accepted(with(minimal(), "logit_bias", {{"12", -100}, {"7", 5}})).logit_bias;
  EXPECT_EQ(bias.size(), 2u);
  EXPECT_EQ(refused(with(minimal(), "logit_bias", {{"abc", 1}})).param, "logit_bias");
  EXPECT_EQ(refused(with(minimal(), "logit_bias", {{"1", 101}})).param, "logit_bias");
}

TEST(ChatRequest, UnsupportedFeaturesAreRefusedNotIgnored) {
  EXPECT_EQ(refused(with(minimal(), "n", 2)).param, "n");
}

json weather_tool() {
  return {
      {"type", "function"},
      {"function",
       {{"name", "get_weather"},
        {"parameters", {{"type", "object"}, {"properties", {{"city", {{"type", "string"}}}}}}}}}};
}

TEST(ChatRequest, ResponseFormats) {
  EXPECT_EQ(accepted(with(minimal(), "response_format", {{"type", "text"}})).response_format.kind,
            ResponseFormat::Kind::kText);
  EXPECT_EQ(
      accepted(with(minimal(), "response_format", {{"type", "json_object"}})).response_format.kind,
      ResponseFormat::Kind::kJsonObject);
  json schema_format = {
      {"type", "json_schema"},
      {"json_schema", {{"name", "person"}, {"schema", {{"type", "object"}}}, {"strict", true}}}};
  ResponseFormat format =
      accepted(with(minimal(), "response_format", schema_format)).response_format;
  EXPECT_EQ(format.kind, ResponseFormat::Kind::kJsonSchema);
  EXPECT_EQ(format.name, "person");
  EXPECT_EQ(format.schema, json({{"type", "object"}}));
  EXPECT_TRUE(format.strict);

  EXPECT_EQ(refused(with(minimal(), "response_format", {{"type", "yaml"}})).param,
            "response_format.type");
  EXPECT_EQ(refused(with(minimal(), "response_format", "json")).param, "response_format");
  EXPECT_EQ(refused(with(minimal(), "response_format", {{"type", "json_schema"}})).param,
            "response_format.json_schema");
  schema_format["json_schema"]["name"] = "has space";
  EXPECT_EQ(refused(with(minimal(), "response_format", schema_format)).param,
            "response_format.json_schema.name");
  schema_format["json_schema"]["name"] = "ok";
  schema_format["json_schema"]["schema"] = "object";
  EXPECT_EQ(refused(with(minimal(), "response_format", schema_format)).param,
            "response_format.json_schema.schema");
}

TEST(ChatRequest, GrammarIsAStringAndExclusive) {
  EXPECT_EQ(accepted(with(minimal(), "grammar", "root ::= \"yes\"")).grammar,
            std::optional<std::string>("root ::= \"yes\""));
  EXPECT_EQ(refused(with(minimal(), "grammar", 3)).param, "grammar");
  EXPECT_EQ(refused(with(minimal(), "grammar", "")).param, "grammar");
  json both = with(minimal(), "grammar", "root ::= \"x\"");
  both["response_format"] = {{"type", "json_object"}};
  EXPECT_EQ(refused(both).param, "grammar");
  json with_tools = with(minimal(), "grammar", "root ::= \"x\"");
  with_tools["tools"] = json::array({weather_tool()});
  EXPECT_EQ(refused(with_tools).param, "grammar");
  with_tools["tool_choice"] = "none";  // no call possible: the grammar is the reply's
  accepted(with_tools);
}

TEST(ChatRequest, ToolsAndToolChoice) {
  json body = with(minimal(), "tools", json::array({weather_tool()}));
  ChatRequest request = accepted(body);
  EXPECT_EQ(request.tools.size(), 1u);
  EXPECT_EQ(request.tool_choice.mode, ToolChoice::Mode::kAuto);
  EXPECT_TRUE(request.parallel_tool_calls);

  EXPECT_EQ(accepted(with(body, "tool_choice", "required")).tool_choice.mode,
            ToolChoice::Mode::kRequired);
  EXPECT_EQ(accepted(with(body, "tool_choice", "none")).tool_choice.mode, ToolChoice::Mode::kNone);
  json named = {{"type", "function"}, {"function", {{"name", "get_weather"}}}};
  ToolChoice choice = accepted(with(body, "tool_choice", named)).tool_choice;
  EXPECT_EQ(choice.mode, ToolChoice::Mode::kFunction);
  EXPECT_EQ(choice.function, "get_weather");
  EXPECT_FALSE(accepted(with(body, "parallel_tool_calls", false)).parallel_tool_calls);

  named["function"]["name"] = "get_time";
  EXPECT_EQ(refused(with(body, "tool_choice", named)).param, "tool_choice.function.name");
  EXPECT_EQ(refused(with(body, "tool_choice", "sometimes")).param, "tool_choice");
  EXPECT_EQ(refused(with(minimal(), "tool_choice", "required")).param, "tool_choice");
  EXPECT_EQ(refused(with(body, "parallel_tool_calls", "yes")).param, "parallel_tool_calls");
  EXPECT_EQ(refused(with(minimal(), "tools", "get_weather")).param, "tools");
  EXPECT_EQ(refused(with(minimal(), "tools", json::array({weather_tool(), weather_tool()}))).param,
            "tools");
  json no_name = weather_tool();
  no_name["function"].erase("name");
  EXPECT_EQ(refused(with(minimal(), "tools", json::array({no_name}))).param, "tools");
  json bad_parameters = weather_tool();
  bad_parameters["function"]["parameters"] = "a string";
  EXPECT_EQ(refused(with(minimal(), "tools", json::array({bad_parameters}))).param, "tools");
}

TEST(ChatRequest, ValidationOrderIsFixed) {
  // Several problems at once: the earliest check in the documented order wins.
  json body = minimal();
  body["messages"] = json::array();
  body["temperature"] = 9;
  body["model"] = "unknown";
  body["n"] = 3;
  EXPECT_EQ(refused(body).param, "n");
  body.erase("n");
  EXPECT_EQ(refused(body).param, "model");
  body["model"] = "ingot-model";
  EXPECT_EQ(refused(body).param, "messages");
  body["messages"] = minimal()["messages"];
  EXPECT_EQ(refused(body).param, "temperature");
}

// Clients written for llama-server send its names; each must take effect
// with llama-server's meaning, not be dropped as an unknown field.
TEST(ChatRequest, LlamaServerRepeatPenaltyIsTheRepetitionPenalty) {
  EXPECT_EQ(accepted(with(minimal(), "repeat_penalty", 1.3)).repetition_penalty, 1.3f);
  EXPECT_EQ(refused(with(minimal(), "repeat_penalty", 0)).param, "repeat_penalty");
  json both = with(with(minimal(), "repeat_penalty", 1.3), "repetition_penalty", 1.3);
  EXPECT_EQ(accepted(both).repetition_penalty, 1.3f);
  ApiError disagree = refused(with(both, "repetition_penalty", 1.1));
  EXPECT_EQ(disagree.status, 400);
  EXPECT_EQ(disagree.param, "repeat_penalty");
}

TEST(ChatRequest, SeedMinusOneAsksForARandomSeed) {
  EXPECT_FALSE(accepted(with(minimal(), "seed", -1)).seed.has_value());
  EXPECT_EQ(*accepted(with(minimal(), "seed", 7)).seed, 7u);
}

TEST(ChatRequest, LlamaServerNPredictIsMaxTokens) {
  EXPECT_EQ(*accepted(with(minimal(), "n_predict", 12)).max_tokens, 12);
  EXPECT_FALSE(accepted(with(minimal(), "n_predict", -1)).max_tokens.has_value());
  EXPECT_EQ(refused(with(minimal(), "n_predict", 0)).param, "n_predict");
  EXPECT_EQ(*accepted(with(with(minimal(), "n_predict", 5), "max_tokens", 5)).max_tokens, 5);
  EXPECT_EQ(refused(with(with(minimal(), "n_predict", 5), "max_tokens", 6)).param, "n_predict");
}

TEST(ChatRequest, ReasoningEffortSwitchesTheTemplatesThinking) {
  EXPECT_EQ(accepted(with(minimal(), "reasoning_effort", "high")).chat_template_kwargs,
            json({{"enable_thinking", true}, {"reasoning_effort", "high"}}));
  EXPECT_EQ(accepted(with(minimal(), "reasoning_effort", "none")).chat_template_kwargs,
            json({{"enable_thinking", false}}));
  EXPECT_EQ(accepted(with(minimal(), "reasoning_effort", "minimal")).chat_template_kwargs,
            json({{"enable_thinking", false}}));
  EXPECT_EQ(refused(with(minimal(), "reasoning_effort", "max")).param, "reasoning_effort");
  json both = with(minimal(), "chat_template_kwargs", json({{"enable_thinking", true}}));
  accepted(with(both, "reasoning_effort", "low"));
  EXPECT_EQ(refused(with(both, "reasoning_effort", "none")).param, "reasoning_effort");
  EXPECT_TRUE(accepted(minimal()).chat_template_kwargs.empty());
}

TEST(ChatRequest, ReasoningEffortBoundsTheThinkingUnlessABudgetIsGiven) {
  EXPECT_EQ(accepted(with(minimal(), "reasoning_effort", "low")).reasoning_budget,
            kLowEffortReasoningBudget);
  EXPECT_EQ(accepted(with(minimal(), "reasoning_effort", "medium")).reasoning_budget,
            kMediumEffortReasoningBudget);
  EXPECT_FALSE(accepted(with(minimal(), "reasoning_effort", "high")).reasoning_budget);
  EXPECT_EQ(accepted(with(minimal(), "reasoning_effort", "none")).reasoning_budget, 0);
  EXPECT_EQ(accepted(with(minimal(), "reasoning_effort", "minimal")).reasoning_budget, 0);
  EXPECT_FALSE(accepted(minimal()).reasoning_budget);
  json low = with(minimal(), "reasoning_effort", "low");
  EXPECT_EQ(accepted(with(low, "reasoning_budget", 50)).reasoning_budget, 50);
  EXPECT_FALSE(accepted(with(low, "reasoning_budget", -1)).reasoning_budget);
}

TEST(ChatRequest, CachePromptIsAcceptedAsABoolean) {
  accepted(with(minimal(), "cache_prompt", true));
  accepted(with(minimal(), "cache_prompt", false));
  EXPECT_EQ(refused(with(minimal(), "cache_prompt", "yes")).param, "cache_prompt");
}

TEST(ChatRequest, UnknownFieldsAreIgnored) {
  accepted(with(minimal(), "user", "someone"));
}

TEST(ApiError, EnvelopeHasAllFourFields) {
  json body = json::parse(invalid_request("bad", "temperature").to_json());
  EXPECT_EQ(body["error"]["message"], "bad");
  EXPECT_EQ(body["error"]["type"], "invalid_request_error");
  EXPECT_EQ(body["error"]["param"], "temperature");
  EXPECT_TRUE(body["error"]["code"].is_null());
}

// llama-server's per-request adapters: a list of {id, scale}; scale 0 when
// absent; each id once.
TEST(ChatRequest, LoraNamesAdaptersByIdAndScale) {
  EXPECT_FALSE(accepted(minimal()).lora.has_value());
  ChatRequest two = accepted(with(minimal(), "lora", {{{"id", 1}, {"scale", 0.5}}, {{"id", 0}}}));
  ASSERT_TRUE(two.lora.has_value());
  EXPECT_EQ(*two.lora, (std::vector<std::pair<int64_t, float>>{{1, 0.5f}, {0, 0.0f}}));
  EXPECT_TRUE(accepted(with(minimal(), "lora", json::array())).lora->empty());
  for (const json& bad :
       {json("a"), json{{{"scale", 1}}}, json{{{"id", -1}}}, json{{{"id", true}}},
        json{{{"id", 0}, {"scale", "x"}}}, json{{{"id", 0}}, {{"id", 0}}}, json{1}}) {
    EXPECT_EQ(refused(with(minimal(), "lora", bad)).param, "lora") << bad.dump();
  }
}

}  // namespace
}  // namespace ingot::server
