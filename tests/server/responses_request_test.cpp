// Responses API requests: what each input item becomes in the chat request
// every dialect ends in, what the response repeats, and the refusals with
// the field they name.

#include "server/responses/responses_request.h"

#include <gtest/gtest.h>

namespace ingot::server::responses {
namespace {

using json = nlohmann::ordered_json;

RequestLimits limits() {
  return {{"ingot-model"}, 4096};
}

json minimal() {
  return {{"model", "ingot-model"}, {"input", "hi"}};
}

json with(json body, const std::string& key, json value) {
  body[key] = std::move(value);
  return body;
}

ResponsesRequest accepted(const json& body, const json& prior = json::array()) {
  auto result = parse_responses_request(body, limits(), prior);
  if (auto* error = std::get_if<ApiError>(&result)) {
    ADD_FAILURE() << error->message;
    return {};
  }
  return std::get<ResponsesRequest>(result);
}

ApiError refused(const json& body) {
  auto result = parse_responses_request(body, limits(), json::array());
  EXPECT_TRUE(std::holds_alternative<ApiError>(result)) << body.dump();
  return std::holds_alternative<ApiError>(result) ? std::get<ApiError>(result) : ApiError{};
}

TEST(ResponsesRequest, AStringInputIsOneUserTurnAfterTheInstructions) {
  ResponsesRequest request = accepted(with(minimal(), "instructions", "Be brief."));
  EXPECT_EQ(
      request.chat.messages,
      json::parse(R"([{"role":"system","content":"Be brief."},{"role":"user","content":"hi"}])"));
  ASSERT_EQ(request.input_items.size(), 1u);
  const json& item = request.input_items[0];
  EXPECT_EQ(item["type"], "message");
  EXPECT_EQ(item["content"], json::parse(R"([{"type":"input_text","text":"hi"}])"));
  EXPECT_EQ(item["id"].get<std::string>().rfind("msg_", 0), 0u);
  EXPECT_EQ(request.conversation, request.input_items);
}

TEST(ResponsesRequest, CallsJoinTheirAssistantTurnAndOutputsBecomeToolMessages) {
  json input = json::parse(R"([
    {"role": "developer", "content": "Use tools."},
    {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "weather?"}]},
    {"type": "reasoning", "id": "rs_1", "summary": [], "content": [{"type": "reasoning_text", "text": "look it up"}]},
    {"type": "function_call", "call_id": "call_1", "name": "get_weather", "arguments": "{\"city\":\"Paris\"}"},
    {"type": "function_call", "call_id": "call_2", "name": "get_weather", "arguments": "{\"city\":\"Rome\"}"},
    {"type": "function_call_output", "call_id": "call_1", "output": "sunny"},
    {"type": "function_call_output", "call_id": "call_2", "output": [{"type": "input_text", "text": "rain"}]}
  ])");
  ResponsesRequest request = accepted(with(minimal(), "input", input));
  const json& messages = request.chat.messages;
  ASSERT_EQ(messages.size(), 5u);
  EXPECT_EQ(messages[0], json::parse(R"({"role":"developer","content":"Use tools."})"));
  EXPECT_EQ(messages[2]["role"], "assistant");
  EXPECT_TRUE(messages[2]["content"].is_null());
  EXPECT_EQ(messages[2]["reasoning_content"], "look it up");
  ASSERT_EQ(messages[2]["tool_calls"].size(), 2u);
  EXPECT_EQ(messages[2]["tool_calls"][1]["function"]["arguments"], "{\"city\":\"Rome\"}");
  EXPECT_EQ(messages[3],
            json::parse(R"({"role":"tool","tool_call_id":"call_1","content":"sunny"})"));
  EXPECT_EQ(messages[4]["content"], "rain");
  EXPECT_EQ(request.input_items[2]["id"], "rs_1");  // an id the client gave is kept
}

TEST(ResponsesRequest, TheContinuedConversationComesBeforeTheInputButAfterTheInstructions) {
  json prior = json::parse(R"([
    {"type": "message", "role": "user", "id": "msg_a", "content": [{"type": "input_text", "text": "one"}]},
    {"type": "message", "role": "assistant", "id": "msg_b", "status": "completed",
     "content": [{"type": "output_text", "text": "two", "annotations": []}]}
  ])");
  ResponsesRequest request = accepted(
      with(with(minimal(), "previous_response_id", "resp_x"), "instructions", "New."), prior);
  EXPECT_EQ(request.chat.messages, json::parse(R"([
    {"role":"system","content":"New."},
    {"role":"user","content":"one"},
    {"role":"assistant","content":"two"},
    {"role":"user","content":"hi"}])"));
  EXPECT_EQ(request.previous_response_id, "resp_x");
  EXPECT_EQ(request.input_items.size(), 1u);
  EXPECT_EQ(request.conversation.size(), 3u);
  EXPECT_EQ(request.settings["previous_response_id"], "resp_x");
}

TEST(ResponsesRequest, FunctionToolsToolChoiceAndTextFormatTakeTheChatShapes) {
  json body = minimal();
  body["tools"] = json::parse(R"([{"type": "function", "name": "get_weather", "description": "d",
      "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}, "strict": true}])");
  body["tool_choice"] = json::parse(R"({"type": "function", "name": "get_weather"})");
  ResponsesRequest request = accepted(body);
  ASSERT_EQ(request.chat.tools.size(), 1u);
  EXPECT_EQ(request.chat.tools[0]["function"]["name"], "get_weather");
  EXPECT_EQ(request.chat.tool_choice.mode, ToolChoice::Mode::kFunction);
  EXPECT_EQ(request.chat.tool_choice.function, "get_weather");

  json structured = with(minimal(), "text", json::parse(R"({"format": {"type": "json_schema",
      "name": "answer", "schema": {"type": "object"}, "strict": true}})"));
  ResponsesRequest formatted = accepted(structured);
  EXPECT_EQ(formatted.chat.response_format.kind, ResponseFormat::Kind::kJsonSchema);
  EXPECT_EQ(formatted.chat.response_format.name, "answer");
  EXPECT_TRUE(formatted.chat.response_format.strict);
  EXPECT_EQ(formatted.settings["text"]["format"]["name"], "answer");
}

TEST(ResponsesRequest, ANamespacesFunctionsAreOfferedUnderFlatNames) {
  json body = minimal();
  body["tools"] = json::parse(R"([
    {"type": "function", "name": "exec_command", "parameters": {"type": "object"}},
    {"type": "namespace", "name": "agents", "description": "Sub-agents.", "tools": [
      {"type": "function", "name": "spawn", "description": "Start one.", "parameters": {"type": "object"}},
      {"type": "function", "name": "wait", "parameters": {"type": "object"}}]}])");
  body["input"] = json::parse(R"([
    {"role": "user", "content": "go"},
    {"type": "function_call", "call_id": "c1", "namespace": "agents", "name": "spawn", "arguments": "{}"},
    {"type": "function_call_output", "call_id": "c1", "output": "started"}])");
  ResponsesRequest request = accepted(body);
  ASSERT_EQ(request.chat.tools.size(), 3u);
  EXPECT_EQ(request.chat.tools[1]["function"]["name"], "agents__spawn");
  EXPECT_EQ(request.chat.tools[1]["function"]["description"], "Start one.");
  EXPECT_EQ(request.chat.tools[2]["function"]["name"], "agents__wait");
  ASSERT_EQ(request.tool_namespaces.count("agents__spawn"), 1u);
  EXPECT_EQ(request.tool_namespaces.at("agents__spawn").space, "agents");
  EXPECT_EQ(request.tool_namespaces.at("agents__spawn").name, "spawn");
  EXPECT_EQ(request.chat.messages[1]["tool_calls"][0]["function"]["name"], "agents__spawn");
}

TEST(ResponsesRequest, ANamespaceHoldsOnlyFunctions) {
  json body = minimal();
  body["tools"] = json::parse(R"([{"type": "namespace", "name": "n", "tools": [
      {"type": "custom", "name": "apply_patch"}]}])");
  ApiError error = refused(body);
  EXPECT_EQ(error.param, "tools");
  EXPECT_NE(error.message.find("'custom'"), std::string::npos) << error.message;
}

TEST(ResponsesRequest, ReasoningEffortSwitchesThinkingAndMaxOutputTokensCapsTheReply) {
  json body = with(minimal(), "reasoning", {{"effort", "minimal"}});
  body["max_output_tokens"] = 64;
  ResponsesRequest request = accepted(body);
  EXPECT_EQ(request.chat.chat_template_kwargs["enable_thinking"], false);
  EXPECT_EQ(request.chat.max_tokens, 64);
  EXPECT_EQ(request.settings["reasoning"]["effort"], "minimal");
  EXPECT_EQ(request.settings["max_output_tokens"], 64);
}

TEST(ResponsesRequest, TheResponseRepeatsTheDefaultsItWasNotGiven) {
  ResponsesRequest request = accepted(minimal());
  EXPECT_TRUE(request.store);
  EXPECT_EQ(request.settings["store"], true);
  EXPECT_EQ(request.settings["tool_choice"], "auto");
  EXPECT_EQ(request.settings["truncation"], "disabled");
  EXPECT_EQ(request.settings["text"]["format"]["type"], "text");
  EXPECT_TRUE(request.settings["instructions"].is_null());
  EXPECT_FALSE(accepted(with(minimal(), "store", false)).store);
}

TEST(ResponsesRequest, RefusalsNameTheirField) {
  EXPECT_EQ(refused(json::object({{"model", "ingot-model"}})).param, "input");
  EXPECT_EQ(refused(with(minimal(), "input", json::array())).param, "input");
  EXPECT_EQ(
      refused(with(minimal(), "input", json::parse(R"([{"type": "item_reference", "id": "x"}])")))
          .param,
      "input");
  EXPECT_EQ(
      refused(
          with(
              minimal(), "input",
              json::parse(
                  R"([{"role": "user", "content": [{"type": "input_image", "image_url": "x"}]}])")))
          .param,
      "input");
  EXPECT_EQ(refused(with(minimal(), "tools", json::parse(R"([{"name": "typeless"}])"))).param,
            "tools");
  EXPECT_EQ(
      refused(with(minimal(), "tool_choice", json::parse(R"({"type": "file_search"})"))).param,
      "tool_choice");
  EXPECT_EQ(refused(with(minimal(), "text", json::parse(R"({"format": {"type": "xml"}})"))).param,
            "text.format");
  EXPECT_EQ(refused(with(minimal(), "truncation", "auto")).param, "truncation");
  EXPECT_EQ(refused(with(minimal(), "background", true)).param, "background");
  EXPECT_EQ(refused(with(minimal(), "store", "yes")).param, "store");
  EXPECT_EQ(refused(with(minimal(), "metadata", json::parse(R"({"k": 1})"))).param, "metadata");
  EXPECT_EQ(refused(with(minimal(), "previous_response_id", 7)).param, "previous_response_id");
}

// Codex sends a hosted web_search tool by default: it is left out, named,
// and the function tools beside it are kept.
TEST(ResponsesRequest, HostedToolsAreLeftOutAndNamed) {
  ResponsesRequest request = accepted(with(minimal(), "tools", json::parse(R"([
      {"type": "web_search"},
      {"type": "function", "name": "shell", "parameters": {"type": "object"}},
      {"type": "file_search", "vector_store_ids": ["v"]}])")));
  ASSERT_EQ(request.chat.tools.size(), 1u);
  EXPECT_EQ(request.chat.tools[0]["function"]["name"], "shell");
  EXPECT_EQ(request.dropped_tools, (std::vector<std::string>{"web_search", "file_search"}));
  // Forcing one is still refused: the model cannot call it.
  json forced = with(minimal(), "tools", json::parse(R"([{"type": "web_search"}])"));
  EXPECT_EQ(refused(with(forced, "tool_choice", json::parse(R"({"type": "web_search"})"))).param,
            "tool_choice");
}

TEST(ResponsesRequest, TheChatChecksSpeakOfTheResponsesFields) {
  ApiError zero = refused(with(minimal(), "max_output_tokens", 0));
  EXPECT_EQ(zero.param, "max_output_tokens");
  EXPECT_EQ(zero.message.find("'max_tokens'"), std::string::npos) << zero.message;
  EXPECT_NE(zero.message.find("'max_output_tokens'"), std::string::npos) << zero.message;
  EXPECT_EQ(refused(with(minimal(), "reasoning", {{"effort", "extreme"}})).param,
            "reasoning.effort");
  ApiError unknown_model = refused(with(minimal(), "model", "other"));
  EXPECT_EQ(unknown_model.status, 404);
}

}  // namespace
}  // namespace ingot::server::responses
