// Anthropic's Messages requests: what each block becomes in the chat
// request every dialect ends in, and the refusals with the field they name.

#include <gtest/gtest.h>

#include "server/anthropic/messages_request.h"

namespace ingot::server::anthropic {
namespace {

using json = nlohmann::ordered_json;

RequestLimits limits() {
  return {{"ingot-model"}, 4096};
}

json minimal() {
  return {{"model", "ingot-model"},
          {"max_tokens", 16},
          {"messages", {{{"role", "user"}, {"content", "hi"}}}}};
}

json with(json body, const std::string& key, json value) {
  body[key] = std::move(value);
  return body;
}

ChatRequest accepted(const json& body, MessagesCall call = MessagesCall::kCreate) {
  auto result = parse_messages_request(body, limits(), call);
  if (auto* error = std::get_if<ApiError>(&result)) {
    ADD_FAILURE() << error->message;
    return {};
  }
  return std::get<ChatRequest>(result);
}

ApiError refused(const json& body) {
  auto result = parse_messages_request(body, limits());
  EXPECT_TRUE(std::holds_alternative<ApiError>(result)) << body.dump();
  return std::holds_alternative<ApiError>(result) ? std::get<ApiError>(result) : ApiError{};
}

TEST(MessagesRequest, SystemAndAStringTurnBecomeChatMessages) {
  ChatRequest chat = accepted(with(minimal(), "system", "Be brief."));
  EXPECT_EQ(
      chat.messages,
      json::parse(R"([{"role":"system","content":"Be brief."},{"role":"user","content":"hi"}])"));
  EXPECT_EQ(chat.max_tokens, 16);
}

TEST(MessagesRequest, SystemTextBlocksJoinByNewlines) {
  ChatRequest chat =
      accepted(with(minimal(), "system",
                    json::parse(R"([{"type":"text","text":"a"},{"type":"text","text":"b"}])")));
  EXPECT_EQ(chat.messages[0]["content"], "a\nb");
}

TEST(MessagesRequest, ToolUseAndToolResultBecomeCallsAndToolMessages) {
  json messages = json::parse(R"([
    {"role": "user", "content": "weather?"},
    {"role": "assistant", "content": [
      {"type": "thinking", "thinking": "look it up", "signature": "x"},
      {"type": "text", "text": "Checking."},
      {"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {"city": "Oslo"}}]},
    {"role": "user", "content": [
      {"type": "tool_result", "tool_use_id": "toolu_1", "content": [{"type": "text", "text": "sunny"}]},
      {"type": "text", "text": "And tomorrow?"}]}
  ])");
  ChatRequest chat = accepted(with(minimal(), "messages", messages));
  ASSERT_EQ(chat.messages.size(), 4u);
  const json& assistant = chat.messages[1];
  EXPECT_EQ(assistant["content"], "Checking.");
  EXPECT_EQ(assistant["reasoning_content"], "look it up");
  EXPECT_EQ(assistant["tool_calls"][0]["id"], "toolu_1");
  EXPECT_EQ(assistant["tool_calls"][0]["function"]["name"], "get_weather");
  EXPECT_EQ(json::parse(assistant["tool_calls"][0]["function"]["arguments"].get<std::string>()),
            json::parse(R"({"city":"Oslo"})"));
  EXPECT_EQ(chat.messages[2],
            json::parse(R"({"role":"tool","tool_call_id":"toolu_1","content":"sunny"})"));
  EXPECT_EQ(chat.messages[3]["role"], "user");
  EXPECT_EQ(chat.messages[3]["content"][0]["text"], "And tomorrow?");
}

TEST(MessagesRequest, AFailedToolResultSaysSoInItsText) {
  json messages = json::parse(R"([
    {"role": "assistant", "content": [{"type": "tool_use", "id": "t", "name": "f", "input": {}}]},
    {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t", "content": "boom", "is_error": true}]}
  ])");
  ChatRequest chat = accepted(with(minimal(), "messages", messages));
  EXPECT_EQ(chat.messages[1]["content"], "Error: boom");
  EXPECT_TRUE(chat.messages[0]["content"].is_null());
}

TEST(MessagesRequest, ToolsAndToolChoiceMapToTheChatForms) {
  json body = with(minimal(), "tools", json::parse(R"([{"name": "get_weather", "description": "w",
      "input_schema": {"type": "object", "properties": {"city": {"type": "string"}}}}])"));
  ChatRequest any = accepted(with(body, "tool_choice", {{"type", "any"}}));
  ASSERT_EQ(any.tools.size(), 1u);
  EXPECT_EQ(any.tool_choice.mode, ToolChoice::Mode::kRequired);
  ChatRequest named =
      accepted(with(body, "tool_choice", {{"type", "tool"}, {"name", "get_weather"}}));
  EXPECT_EQ(named.tool_choice.mode, ToolChoice::Mode::kFunction);
  ChatRequest none = accepted(with(body, "tool_choice", {{"type", "none"}}));
  EXPECT_EQ(none.tool_choice.mode, ToolChoice::Mode::kNone);
  ChatRequest single =
      accepted(with(body, "tool_choice", {{"type", "auto"}, {"disable_parallel_tool_use", true}}));
  EXPECT_FALSE(single.parallel_tool_calls);
}

TEST(MessagesRequest, ThinkingSetsTheTemplateSwitchAndTheBudget) {
  ChatRequest on = accepted(with(with(minimal(), "max_tokens", 4000), "thinking",
                                 {{"type", "enabled"}, {"budget_tokens", 2048}}));
  EXPECT_EQ(on.chat_template_kwargs["enable_thinking"], true);
  EXPECT_EQ(on.reasoning_budget, 2048);
  ChatRequest off = accepted(with(minimal(), "thinking", {{"type", "disabled"}}));
  EXPECT_EQ(off.chat_template_kwargs["enable_thinking"], false);
  EXPECT_EQ(off.reasoning_budget, 0);  // for templates that ignore the switch
  // Anthropic's models think only when asked to.
  ChatRequest unasked = accepted(minimal());
  EXPECT_EQ(unasked.chat_template_kwargs["enable_thinking"], false);
  EXPECT_EQ(unasked.reasoning_budget, 0);
}

TEST(MessagesRequest, AdaptiveThinkingIsBoundedByTheEffort) {
  json adaptive = with(minimal(), "thinking", {{"type", "adaptive"}, {"display", "omitted"}});
  ChatRequest unbounded = accepted(adaptive);
  EXPECT_EQ(unbounded.chat_template_kwargs["enable_thinking"], true);
  EXPECT_FALSE(unbounded.reasoning_budget.has_value());
  ChatRequest low = accepted(with(adaptive, "output_config", {{"effort", "low"}}));
  EXPECT_EQ(low.reasoning_budget, kLowEffortReasoningBudget);
  ChatRequest max = accepted(with(adaptive, "output_config", {{"effort", "max"}}));
  EXPECT_FALSE(max.reasoning_budget.has_value());
}

TEST(MessagesRequest, SystemTurnsBetweenTheOthersStaySystemTurns) {
  json messages = json::parse(R"([
    {"role": "user", "content": "hi"},
    {"role": "system", "content": [{"type": "text", "text": "Reminder."}]},
    {"role": "user", "content": "again"}])");
  ChatRequest chat = accepted(with(minimal(), "messages", messages));
  ASSERT_EQ(chat.messages.size(), 3u);
  EXPECT_EQ(chat.messages[1], json::parse(R"({"role":"system","content":"Reminder."})"));
}

TEST(MessagesRequest, StopSequencesAreNotLimitedToFour) {
  ChatRequest chat = accepted(with(minimal(), "stop_sequences", {"a", "b", "c", "d", "e", "f"}));
  EXPECT_EQ(chat.stop.size(), 6u);
}

TEST(MessagesRequest, StopSequencesAreBounded) {
  EXPECT_EQ(accepted(with(minimal(), "stop_sequences", json(std::vector<std::string>(256, "x"))))
                .stop.size(),
            256u);
  ApiError many =
      refused(with(minimal(), "stop_sequences", json(std::vector<std::string>(257, "x"))));
  EXPECT_EQ(many.param, "stop_sequences");
  EXPECT_NE(many.message.find("at most 256"), std::string::npos);
}

TEST(MessagesRequest, CountTokensNeedsNoMaxTokens) {
  json body = minimal();
  body.erase("max_tokens");
  accepted(body, MessagesCall::kCountTokens);
  EXPECT_EQ(refused(body).param, "max_tokens");
}

TEST(MessagesRequest, ANullMaxTokensIsNoMaxTokens) {
  ApiError error = refused(with(minimal(), "max_tokens", nullptr));
  EXPECT_EQ(error.param, "max_tokens");
  EXPECT_EQ(error.message, "'max_tokens' is required.");
}

TEST(MessagesRequest, AnEmptyContentListIsRefusedButInAFinalAssistantTurn) {
  ApiError empty_user =
      refused(with(minimal(), "messages", json::parse(R"([{"role":"user","content":[]}])")));
  EXPECT_EQ(empty_user.param, "messages");
  EXPECT_NE(empty_user.message.find("messages[0].content must not be empty"), std::string::npos)
      << empty_user.message;
  refused(with(minimal(), "messages", json::parse(R"([{"role":"user","content":"hi"},
      {"role":"assistant","content":[]},{"role":"user","content":"again"}])")));
  ChatRequest begun = accepted(with(minimal(), "messages", json::parse(R"([
      {"role":"user","content":"hi"},{"role":"assistant","content":[]}])")));
  EXPECT_EQ(begun.messages.size(), 2u);
}

TEST(MessagesRequest, RefusalsNameTheirField) {
  EXPECT_EQ(refused(with(minimal(), "messages", json::array())).param, "messages");
  EXPECT_EQ(
      refused(with(minimal(), "messages", json::parse(R"([{"role":"tool","content":"x"}])"))).param,
      "messages");
  EXPECT_EQ(refused(with(minimal(), "thinking", {{"type", "adaptive"}, {"display", "loud"}})).param,
            "thinking");
  EXPECT_EQ(refused(with(minimal(), "output_config", {{"effort", "extreme"}})).param,
            "output_config");
  ApiError image = refused(with(minimal(), "messages", json::parse(R"([{"role":"user","content":[
      {"type":"image","source":{"type":"base64","media_type":"image/png","data":"AA"}}]}])")));
  EXPECT_NE(image.message.find("text-only"), std::string::npos) << image.message;
  ApiError server_tool = refused(with(
      minimal(), "tools", json::parse(R"([{"type":"web_search_20250305","name":"web_search"}])")));
  EXPECT_EQ(server_tool.param, "tools");
  EXPECT_NE(server_tool.message.find("web_search_20250305"), std::string::npos);
  EXPECT_EQ(refused(with(minimal(), "tool_choice", {{"type", "sometimes"}})).param, "tool_choice");
  EXPECT_EQ(refused(with(minimal(), "temperature", 1.5)).param, "temperature");
  EXPECT_EQ(
      refused(with(minimal(), "thinking", {{"type", "enabled"}, {"budget_tokens", 10}})).param,
      "thinking");
  EXPECT_EQ(refused(with(minimal(), "stop_sequences", "END")).param, "stop_sequences");
  EXPECT_EQ(refused(with(minimal(), "model", "other")).status, 404);
}

TEST(MessagesError, AnthropicRoutesAnswerInAnthropicsEnvelope) {
  EXPECT_EQ(dialect_for_path("/v1/messages"), ErrorDialect::kAnthropic);
  EXPECT_EQ(dialect_for_path("/v1/messages/count_tokens"), ErrorDialect::kAnthropic);
  EXPECT_EQ(dialect_for_path("/v1/messagesx"), ErrorDialect::kOpenAI);
  EXPECT_EQ(dialect_for_path("/v1/chat/completions"), ErrorDialect::kOpenAI);
  ApiError busy{503, "server_error", "full", std::nullopt, "server_busy"};
  EXPECT_EQ(busy.status_in(ErrorDialect::kAnthropic), 529);
  EXPECT_EQ(busy.status_in(ErrorDialect::kOpenAI), 503);
  EXPECT_EQ(nlohmann::json::parse(busy.to_json(ErrorDialect::kAnthropic)),
            nlohmann::json::parse(
                R"({"type":"error","error":{"type":"overloaded_error","message":"full"}})"));
  ApiError missing{404, "invalid_request_error", "no", std::nullopt, "model_not_found"};
  EXPECT_EQ(json::parse(missing.to_json(ErrorDialect::kAnthropic))["error"]["type"],
            "not_found_error");
}

}  // namespace
}  // namespace ingot::server::anthropic
