// Parity with Python's Jinja2: every chat template in
// ../shared/fixtures/templates is rendered over a matrix of conversations
// by ingot and by Jinja2 configured as transformers configures it
// (tests/chat/jinja_reference.py, run once for the whole batch). Where
// Jinja2 renders, ingot must produce the same bytes; where Jinja2 raises,
// ingot must fail too.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "chat/chat_template.h"
#include "reference_runner.h"
#include "support/shared_data.h"

namespace ingot::chat {
namespace {

using Json = nlohmann::ordered_json;

// 2025-03-14 15:09:26 UTC: every strftime_now() call sees this moment.
constexpr std::time_t kPinnedNow = 1741964966;

const char* kWeatherTool = R"({
  "type": "function",
  "function": {
    "name": "get_weather",
    "description": "Get the current weather for a city",
    "parameters": {
      "type": "object",
      "properties": {
        "city": {"type": "string", "description": "City name"},
        "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]}
      },
      "required": ["city"]
    }
  }
})";

const char* kUnicodeTool = R"({
  "type": "function",
  "function": {
    "name": "übersetzen",
    "description": "Übersetzt Text — 翻译文本",
    "parameters": {
      "type": "object",
      "properties": {"täxt": {"type": "string"}, "目标": {"type": "string"}},
      "required": ["täxt"]
    }
  }
})";

struct Conversation {
  std::string name;
  Json messages;
  Json tools;
};

std::vector<Conversation> conversations() {
  return {
      {"system_user", Json::parse(R"([
        {"role": "system", "content": "You are a helpful assistant."},
        {"role": "user", "content": "Hello!"}])"),
       nullptr},
      {"user_only", Json::parse(R"([{"role": "user", "content": "What is 2+2?"}])"), nullptr},
      {"multi_turn", Json::parse(R"([
        {"role": "system", "content": "Be brief."},
        {"role": "user", "content": "Hi"},
        {"role": "assistant", "content": "Hello! How can I help?"},
        {"role": "user", "content": "Tell me a joke."},
        {"role": "assistant", "content": "Why did the chicken cross the road?"},
        {"role": "user", "content": "Why?"}])"),
       nullptr},
      {"tool_calls", Json::parse(R"([
        {"role": "system", "content": "You can call tools."},
        {"role": "user", "content": "Weather in Paris?"},
        {"role": "assistant", "content": "", "tool_calls": [
          {"id": "call_1", "type": "function",
           "function": {"name": "get_weather", "arguments": "{\"city\": \"Paris\", \"unit\": \"celsius\"}"}}]},
        {"role": "tool", "tool_call_id": "call_1", "content": "{\"temperature\": 18, \"sky\": \"clear\"}"},
        {"role": "assistant", "content": "It is 18°C and clear in Paris."},
        {"role": "user", "content": "Thanks"}])"),
       Json::array({Json::parse(kWeatherTool)})},
      {"tools_list", Json::parse(R"([{"role": "user", "content": "What can you do?"}])"),
       Json::array({Json::parse(kWeatherTool), Json::parse(kUnicodeTool)})},
      {"multi_part", Json::parse(R"([
        {"role": "system", "content": [{"type": "text", "text": "System in parts."}]},
        {"role": "user", "content": [{"type": "text", "text": "First part."}, {"type": "text", "text": "Second part."}]}])"),
       nullptr},
      {"reasoning", Json::parse(R"([
        {"role": "user", "content": "Is 7 prime?"},
        {"role": "assistant", "content": "Yes, 7 is prime.", "reasoning_content": "7 has no divisors but 1 and 7."},
        {"role": "user", "content": "And 9?"}])"),
       nullptr},
      {"non_ascii", Json::parse(R"([
        {"role": "system", "content": "Réponds en français. 日本語も大丈夫。"},
        {"role": "user", "content": "Ça va? 🙂 Привет, мир! \"quotes\" and \\ backslash\ttab"}])"),
       Json::array({Json::parse(kUnicodeTool)})},
      {"tool_call_unicode", Json::parse(R"([
        {"role": "user", "content": "Übersetze bitte."},
        {"role": "assistant", "content": null, "tool_calls": [
          {"id": "call_ü", "type": "function",
           "function": {"name": "übersetzen", "arguments": "{\"täxt\": \"grüße\", \"目标\": \"中文\"}"}}]},
        {"role": "tool", "tool_call_id": "call_ü", "content": "问候"}])"),
       Json::array({Json::parse(kUnicodeTool)})},
  };
}

struct Case {
  std::string label;
  size_t template_index;
  ChatPromptInput input;
};

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

TEST(TemplateParity, EveryFixtureTemplateMatchesJinja2) {
  INGOT_REQUIRE_SHARED();
  setenv("TZ", "UTC", 1);
  tzset();
  std::vector<std::filesystem::path> paths;
  for (const auto& entry :
       std::filesystem::directory_iterator(ingot::testing::shared_path("fixtures/templates"))) {
    if (entry.path().extension() == ".jinja") paths.push_back(entry.path());
  }
  std::sort(paths.begin(), paths.end());
  ASSERT_FALSE(paths.empty());

  Json batch = {{"now", kPinnedNow}, {"templates", Json::array()}, {"cases", Json::array()}};
  std::vector<Case> cases;
  for (size_t t = 0; t < paths.size(); ++t) {
    batch["templates"].push_back(read_file(paths[t]));
    for (const Conversation& conversation : conversations()) {
      for (bool generation_prompt : {true, false}) {
        for (bool thinking : {true, false}) {
          Case c;
          c.label = paths[t].filename().string() + " / " + conversation.name +
                    (generation_prompt ? " +gen" : " -gen") + (thinking ? " +think" : " -think");
          c.template_index = t;
          c.input.messages = conversation.messages;
          c.input.tools = conversation.tools;
          c.input.add_generation_prompt = generation_prompt;
          c.input.bos_token = "<s>";
          c.input.eos_token = "</s>";
          c.input.extra_kwargs = {{"enable_thinking", thinking}};
          c.input.fixed_now = kPinnedNow;
          batch["cases"].push_back({{"template", t}, {"context", chat_template_context(c.input)}});
          cases.push_back(std::move(c));
        }
      }
    }
  }

  Json reference = testing::run_jinja_reference(batch);
  ASSERT_TRUE(reference.is_array())
      << "the Jinja2 reference (/usr/bin/python3 with python3-jinja2) failed";
  ASSERT_EQ(reference.size(), cases.size());

  std::vector<Result<ChatTemplate>> templates;
  for (const Json& source : batch["templates"]) {
    templates.push_back(ChatTemplate::parse(source.get<std::string>()));
  }

  int rendered_and_matched = 0;
  int raised_and_raised = 0;
  int raised_by_template = 0;
  int generators_serialized = 0;
  int arguments_as_text = 0;
  int mismatches = 0;
  for (size_t i = 0; i < cases.size(); ++i) {
    const Case& c = cases[i];
    const Json& expected = reference[i];
    const Result<ChatTemplate>& tmpl = templates[c.template_index];
    Result<std::string> actual =
        tmpl.ok() ? tmpl->render(c.input) : Result<std::string>(tmpl.error());
    if (expected["ok"].get<bool>()) {
      if (actual.ok() && actual.value() == expected["output"].get<std::string>()) {
        ++rendered_and_matched;
        continue;
      }
      ++mismatches;
      ADD_FAILURE() << c.label << "\n--- Jinja2:\n"
                    << expected["output"].get<std::string>() << "\n--- ingot:\n"
                    << (actual.ok() ? actual.value() : "ERROR " + actual.error().describe());
    } else if (!actual.ok()) {
      ++raised_and_raised;
      // raise_exception(msg) must surface as its own kind with msg intact:
      // the server answers it with a 400 carrying msg.
      std::string error = expected["error"].get<std::string>();
      if (error.starts_with("TemplateError: ")) {
        ++raised_by_template;
        EXPECT_EQ(actual.error().kind(), ErrorKind::kTemplateRaised) << c.label;
        EXPECT_EQ(actual.error().message(), error.substr(15)) << c.label;
      }
    } else if (expected["error"].get<std::string>().starts_with(
                   "TypeError: Object of type generator is not JSON serializable")) {
      // ingot's one departure: tojson writes a generator as its list, as
      // llama.cpp's engine does for its own templates (json_convert.cpp).
      ++generators_serialized;
    } else if (expected["error"].get<std::string>().starts_with(
                   "TypeError: can only concatenate str (not \"dict\") to str")) {
      // ChatTemplate renders again with the arguments as JSON text
      // (chat_template.h), which this template wants.
      ++arguments_as_text;
    } else {
      ++mismatches;
      ADD_FAILURE() << c.label << "\nJinja2 raised " << expected["error"].get<std::string>()
                    << "\nbut ingot rendered:\n"
                    << actual.value();
    }
  }
  std::printf(
      "template parity: %zu templates x %zu cases each: %d rendered identically, "
      "%d raised in both (%d by raise_exception), %d generators written by tojson, %d "
      "rendered again with arguments as text, %d mismatches\n",
      paths.size(), cases.size() / paths.size(), rendered_and_matched, raised_and_raised,
      raised_by_template, generators_serialized, arguments_as_text, mismatches);
}

}  // namespace
}  // namespace ingot::chat
