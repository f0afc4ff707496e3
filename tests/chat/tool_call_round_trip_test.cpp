// A tool round trip through real chat templates: tools, an assistant turn
// with calls, the tool results, and the next generation prompt render; and
// the calls a template renders into an assistant turn parse back (with the
// detected family) to the calls that were rendered.

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "chat/chat_template.h"
#include "chat/tool_calls/tool_call_family.h"
#include "chat/tool_calls/tool_call_stream.h"
#include "support/shared_data.h"

namespace ingot::chat::tool_calls {
namespace {

using Json = nlohmann::ordered_json;

struct TemplateCase {
  std::string name;
  ToolCallFamily family;
  std::string bos;
  std::string eos;
  bool parallel;  // the template renders several calls in one turn
};

std::vector<TemplateCase> template_cases() {
  return {
      {"Qwen-Qwen2.5-7B-Instruct", ToolCallFamily::kHermes, "", "<|im_end|>", true},
      {"Qwen-Qwen3-0.6B", ToolCallFamily::kHermes, "", "<|im_end|>", true},
      {"NousResearch-Hermes-3-Llama-3.1-8B-tool_use", ToolCallFamily::kHermes, "<|begin_of_text|>",
       "<|im_end|>", true},
      {"NousResearch-Hermes-2-Pro-Llama-3-8B-tool_use", ToolCallFamily::kHermes,
       "<|begin_of_text|>", "<|im_end|>", true},
      {"meta-llama-Llama-3.1-8B-Instruct", ToolCallFamily::kLlama3, "<|begin_of_text|>",
       "<|eot_id|>", false},
      {"meta-llama-Llama-3.2-3B-Instruct", ToolCallFamily::kLlama3, "<|begin_of_text|>",
       "<|eot_id|>", false},
      {"mistralai-Mistral-Nemo-Instruct-2407", ToolCallFamily::kMistralArray, "<s>", "</s>", true},
      {"Mistral-Small-3.2-24B-Instruct-2506", ToolCallFamily::kMistralTagged, "<s>", "</s>", true},
      {"unsloth-mistral-Devstral-Small-2507", ToolCallFamily::kMistralTagged, "<s>", "</s>", true},
      // gpt-oss: one call per turn, which <|call|> ends.
      {"openai-gpt-oss-120b", ToolCallFamily::kHarmony, "", "<|call|>", false},
  };
}

std::string read_round_trip_template(const std::string& name) {
  std::ifstream file(ingot::testing::shared_path("fixtures/templates/" + name + ".jinja"));
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

Json offered_tools() {
  return Json::parse(R"([
    {"type": "function", "function": {"name": "get_weather", "description": "The weather in a city",
      "parameters": {"type": "object", "properties": {
        "city": {"type": "string", "description": "City name"},
        "days": {"type": "integer", "description": "Days ahead"}}, "required": ["city"]}}},
    {"type": "function", "function": {"name": "get_time", "description": "The local time",
      "parameters": {"type": "object", "properties": {
        "zone": {"type": "string", "description": "Time zone"}}}}}])");
}

Json tool_call(const std::string& id, const std::string& name, const std::string& arguments) {
  return {
      {"id", id}, {"type", "function"}, {"function", {{"name", name}, {"arguments", arguments}}}};
}

// Mistral's templates want 9-character ids, so every case uses those.
Json assistant_calls(bool parallel) {
  Json calls = Json::array();
  calls.push_back(tool_call("a1B2c3D4e", "get_weather", R"({"city": "Paris", "days": 2})"));
  if (parallel) calls.push_back(tool_call("f5G6h7I8j", "get_time", R"({"zone": "CET"})"));
  return {{"role", "assistant"}, {"content", nullptr}, {"tool_calls", calls}};
}

Json user(const std::string& text) {
  return {{"role", "user"}, {"content", text}};
}

Result<std::string> render(const TemplateCase& c, const Json& messages, bool generation_prompt) {
  ChatPromptInput input;
  input.messages = messages;
  input.tools = offered_tools();
  input.add_generation_prompt = generation_prompt;
  input.bos_token = c.bos;
  input.eos_token = c.eos;
  input.fixed_now = 1767225600;  // 2026-01-01
  return render_chat_prompt(read_round_trip_template(c.name), input);
}

TEST(ToolCallRoundTrip, ToolsCallsResultsAndTheNextPromptRender) {
  INGOT_REQUIRE_SHARED();
  for (const TemplateCase& c : template_cases()) {
    SCOPED_TRACE(c.name);
    Json messages = Json::array({user("Weather in Paris?"), assistant_calls(c.parallel)});
    messages.push_back(
        {{"role", "tool"}, {"tool_call_id", "a1B2c3D4e"}, {"content", "18C, sunny"}});
    if (c.parallel) {
      messages.push_back({{"role", "tool"}, {"tool_call_id", "f5G6h7I8j"}, {"content", "14:05"}});
    }
    Result<std::string> prompt = render(c, messages, true);
    ASSERT_TRUE(prompt.ok()) << prompt.error().describe();
    EXPECT_NE(prompt->find("get_weather"), std::string::npos);
    EXPECT_NE(prompt->find("Paris"), std::string::npos);
    EXPECT_NE(prompt->find("18C, sunny"), std::string::npos);
    if (c.parallel) {
      EXPECT_NE(prompt->find("14:05"), std::string::npos);
    }
    // The tool descriptions reach the prompt (the parameter's description).
    EXPECT_NE(prompt->find("City name"), std::string::npos);
    EXPECT_EQ(detect_tool_call_family(read_round_trip_template(c.name)), c.family);
  }
}

TEST(ToolCallRoundTrip, ARenderedAssistantTurnParsesToTheCallsRendered) {
  INGOT_REQUIRE_SHARED();
  for (const TemplateCase& c : template_cases()) {
    SCOPED_TRACE(c.name);
    Json before = Json::array({user("Weather in Paris?")});
    Json after = before;
    after.push_back(assistant_calls(c.parallel));
    Result<std::string> prompt = render(c, before, true);
    Result<std::string> turn = render(c, after, false);
    ASSERT_TRUE(prompt.ok()) << prompt.error().describe();
    ASSERT_TRUE(turn.ok()) << turn.error().describe();
    ASSERT_TRUE(turn->starts_with(*prompt)) << *prompt << "\n---\n" << *turn;
    // What the model would have generated: the turn up to its end token.
    std::string reply = turn->substr(prompt->size());
    size_t end = reply.rfind(c.eos);
    ASSERT_NE(end, std::string::npos) << reply;
    reply.resize(end);
    // The engine's reasoning splitter takes Qwen3's think block away before
    // the tool-call parser sees the content.
    if (size_t think_end = reply.find("</think>"); think_end != std::string::npos) {
      reply.erase(0, think_end + std::string_view("</think>").size());
    }

    ParsedReply parsed = parse_tool_calls(reply, c.family, ToolCallIdGenerator(1));
    EXPECT_EQ(parsed.content, std::nullopt) << reply;
    ASSERT_EQ(parsed.tool_calls.size(), c.parallel ? 2u : 1u) << reply;
    EXPECT_EQ(parsed.tool_calls[0].name, "get_weather");
    EXPECT_EQ(Json::parse(parsed.tool_calls[0].arguments),
              Json::parse(R"({"city": "Paris", "days": 2})"));
    if (c.parallel) {
      EXPECT_EQ(parsed.tool_calls[1].name, "get_time");
      EXPECT_EQ(parsed.tool_calls[1].arguments, R"({"zone":"CET"})");
    }
  }
}

// Functionary v3.2 writes a call's arguments with `+`, so it takes them as
// the JSON text OpenAI sends; llama.cpp's DeepSeek R1 template passes
// `tools | map(...)` to tojson. Both render the whole round trip.
TEST(ToolCallRoundTrip, TemplatesThatWantArgumentsAsTextOrMapTheTools) {
  INGOT_REQUIRE_SHARED();
  for (const std::string name : {"meetkai-functionary-medium-v3.2", "llama-cpp-deepseek-r1"}) {
    SCOPED_TRACE(name);
    TemplateCase c{name, detect_tool_call_family(read_round_trip_template(name)), "", "", false};
    Json messages = Json::array({user("Weather in Paris?"), assistant_calls(false)});
    messages.push_back(
        {{"role", "tool"}, {"tool_call_id", "a1B2c3D4e"}, {"content", "18C, sunny"}});
    Result<std::string> prompt = render(c, messages, true);
    ASSERT_TRUE(prompt.ok()) << prompt.error().describe();
    EXPECT_NE(prompt->find("{\"city\""), std::string::npos) << *prompt;
    EXPECT_NE(prompt->find("18C, sunny"), std::string::npos);
    EXPECT_NE(prompt->find("City name"), std::string::npos);
  }
}

TEST(ToolCallRoundTrip, TextBeforeACallIsContentOnQwen) {
  INGOT_REQUIRE_SHARED();
  TemplateCase c = template_cases()[0];
  Json before = Json::array({user("Weather in Paris?")});
  Json after = before;
  Json assistant = assistant_calls(false);
  assistant["content"] = "Let me check.";
  after.push_back(assistant);
  Result<std::string> prompt = render(c, before, true);
  Result<std::string> turn = render(c, after, false);
  ASSERT_TRUE(prompt.ok() && turn.ok());
  std::string reply = turn->substr(prompt->size());
  reply.resize(reply.rfind(c.eos));
  ParsedReply parsed = parse_tool_calls(reply, c.family, ToolCallIdGenerator(1));
  EXPECT_EQ(parsed.content, "Let me check.");
  ASSERT_EQ(parsed.tool_calls.size(), 1u);
  EXPECT_EQ(parsed.tool_calls[0].name, "get_weather");
}

TEST(ToolCallRoundTrip, GenericFallbackPromptRendersThroughATemplateWithoutTools) {
  INGOT_REQUIRE_SHARED();
  std::string source = read_round_trip_template("microsoft-Phi-3.5-mini-instruct");
  ASSERT_FALSE(template_renders_tools(source));
  ChatPromptInput input;
  input.messages =
      with_generic_tool_prompt(Json::array({user("Weather in Paris?")}), offered_tools());
  Result<std::string> prompt = render_chat_prompt(source, input);
  ASSERT_TRUE(prompt.ok()) << prompt.error().describe();
  EXPECT_NE(prompt->find("get_weather"), std::string::npos);
  EXPECT_NE(prompt->find("Weather in Paris?"), std::string::npos);
  ParsedReply parsed = parse_tool_calls(
      R"({"tool_calls": [{"name": "get_weather", "arguments": {"city": "Paris"}}]})",
      ToolCallFamily::kGeneric, ToolCallIdGenerator(1));
  ASSERT_EQ(parsed.tool_calls.size(), 1u);
  EXPECT_EQ(parsed.tool_calls[0].arguments, R"({"city":"Paris"})");
}

}  // namespace
}  // namespace ingot::chat::tool_calls
