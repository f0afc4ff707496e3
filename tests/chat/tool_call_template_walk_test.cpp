// Every shared chat template that renders tool calls: an assistant turn
// with calls, rendered by Python's Jinja2 as transformers renders it
// (jinja_reference.py), parses back through the template's detected family
// to the same names and arguments. Two turns per template: one call with
// nested objects, and two calls with non-ASCII and quoted strings, numbers
// and lists (the first of them alone where the template renders one call).

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "chat/tool_calls/tool_call_family.h"
#include "chat/tool_calls/tool_call_stream.h"
#include "reference_runner.h"
#include "support/shared_data.h"

namespace ingot::chat::tool_calls {
namespace {

using Json = nlohmann::ordered_json;

Json walk_tools() {
  return Json::parse(R"([
    {"type": "function", "function": {"name": "get_weather", "description": "The weather",
      "parameters": {"type": "object", "properties": {
        "city": {"type": "string", "description": "City name"},
        "days": {"type": "integer"}, "opts": {"type": "object"},
        "tags": {"type": "array", "items": {"type": "string"}}},
        "required": ["city"], "additionalProperties": false}}},
    {"type": "function", "function": {"name": "get_time", "description": "The local time",
      "parameters": {"type": "object", "properties": {
        "zone": {"type": "string"}, "offset": {"type": "number"}},
        "required": ["zone"], "additionalProperties": false}}}])");
}

struct ExpectedCall {
  std::string name;
  Json arguments;
};

// The two turns each template is walked with.
std::vector<std::vector<ExpectedCall>> walk_turns() {
  return {
      {{"get_weather", Json::parse(R"({"city": "Paris",
          "opts": {"units": "metric", "nested": {"deep": [1, 2], "flag": true}}})")}},
      {{"get_weather",
        Json::parse(R"({"city": "Zürich \"quoted\" 東京", "days": 3, "tags": ["a b", "c"]})")},
       {"get_time", Json::parse(R"({"zone": "Europe/Paris", "offset": -1.5})")}},
  };
}

// The ways a template may want the turn: arguments as objects or as JSON
// strings, content null or empty.
struct TurnShape {
  bool arguments_as_text;
  bool null_content;
};
constexpr TurnShape kShapes[] = {{false, false}, {false, true}, {true, false}, {true, true}};

Json assistant_turn(const std::vector<ExpectedCall>& calls, TurnShape shape) {
  Json tool_calls = Json::array();
  int index = 0;
  for (const ExpectedCall& call : calls) {
    Json arguments = shape.arguments_as_text ? Json(call.arguments.dump()) : call.arguments;
    tool_calls.push_back({{"id", "call" + std::to_string(index) + "abcd"},
                          {"type", "function"},
                          {"function", {{"name", call.name}, {"arguments", arguments}}}});
    ++index;
  }
  Json content = shape.null_content ? Json(nullptr) : Json("");
  return {{"role", "assistant"}, {"content", content}, {"tool_calls", tool_calls}};
}

Json context(const Json& messages, bool generation_prompt) {
  return {{"messages", messages},
          {"tools", walk_tools()},
          {"add_generation_prompt", generation_prompt},
          {"bos_token", "<BOS>"},
          {"eos_token", "<EOS>"}};
}

// What ends an assistant turn in the templates, and what the engine's
// reasoning splitter takes away before the tool-call parser sees a reply.
std::string reply_body(std::string reply) {
  for (std::string_view think_end :
       {"</think>", "<|END_THINKING|>", "</seed:think>", "</mm:think>"}) {
    if (size_t at = reply.rfind(think_end); at != std::string::npos) {
      reply.erase(0, at + think_end.size());
    }
  }
  return reply;
}

std::string without_turn_end(std::string content) {
  static const std::vector<std::string_view> kEnds = {"<EOS>",
                                                      "<|im_end|>",
                                                      "<|eot_id|>",
                                                      "<|eom_id|>",
                                                      "<|end|>",
                                                      "<|end_of_text|>",
                                                      "</assistant>",
                                                      "<seed:eos>",
                                                      "<turn|>",
                                                      "<|call|>",
                                                      "<SPECIAL_12>",
                                                      "<|message_sep|>",
                                                      "<sep>",
                                                      "<|calls|>",
                                                      "<|tool_response>",
                                                      "<|END_OF_TURN_TOKEN|>",
                                                      "[e~[",
                                                      "<｜end▁of▁sentence｜>",
                                                      "<｜Assistant｜>",
                                                      "<｜hy_eos:opensource｜>"};
  for (bool stripped = true; stripped;) {
    stripped = false;
    while (!content.empty() && std::isspace(static_cast<unsigned char>(content.back()))) {
      content.pop_back();
    }
    for (std::string_view end : kEnds) {
      if (content.ends_with(end)) {
        content.resize(content.size() - end.size());
        stripped = true;
      }
    }
  }
  return content;
}

struct TemplateFile {
  std::string name;
  std::string source;
};

std::vector<TemplateFile> shared_templates() {
  std::vector<TemplateFile> templates;
  for (const auto& entry :
       std::filesystem::directory_iterator(ingot::testing::shared_path("fixtures/templates"))) {
    std::ifstream file(entry.path());
    std::stringstream text;
    text << file.rdbuf();
    templates.push_back({entry.path().stem().string(), text.str()});
  }
  std::sort(templates.begin(), templates.end(),
            [](const auto& a, const auto& b) { return a.name < b.name; });
  return templates;
}

// One render request: a turn (with its shape and call count) of a template.
struct Attempt {
  size_t template_index;
  size_t turn;
  size_t calls;
  TurnShape shape;
};

TEST(ToolCallTemplateWalk, EveryTemplatesRenderedCallsParseBack) {
  INGOT_REQUIRE_SHARED();
  std::vector<TemplateFile> templates = shared_templates();
  auto turns = walk_turns();
  Json batch = {{"now", 1767225600}, {"templates", Json::array()}, {"cases", Json::array()}};
  std::vector<Attempt> attempts;
  Json user = Json::array({{{"role", "user"}, {"content", "Weather?"}}});
  for (size_t t = 0; t < templates.size(); ++t) {
    batch["templates"].push_back(templates[t].source);
    for (size_t turn = 0; turn < turns.size(); ++turn) {
      for (size_t calls = turns[turn].size(); calls >= 1; --calls) {
        std::vector<ExpectedCall> turn_calls(turns[turn].begin(), turns[turn].begin() + calls);
        for (TurnShape shape : kShapes) {
          Json after = user;
          after.push_back(assistant_turn(turn_calls, shape));
          batch["cases"].push_back({{"template", t}, {"context", context(user, true)}});
          batch["cases"].push_back({{"template", t}, {"context", context(after, false)}});
          attempts.push_back({t, turn, calls, shape});
        }
      }
    }
  }
  Json results = chat::testing::run_jinja_reference(batch);
  if (results.is_null()) GTEST_SKIP() << "Python 3 with Jinja2 is not available";
  ASSERT_EQ(results.size(), attempts.size() * 2);

  std::set<std::pair<size_t, size_t>> done;  // (template, turn) parsed
  std::set<std::string> walked;
  for (size_t a = 0; a < attempts.size(); ++a) {
    const Attempt& attempt = attempts[a];
    if (done.contains({attempt.template_index, attempt.turn})) continue;
    const Json& prompt = results[2 * a];
    const Json& turn = results[2 * a + 1];
    if (!prompt["ok"].get<bool>() || !turn["ok"].get<bool>()) continue;
    std::string before = prompt["output"].get<std::string>();
    std::string after = turn["output"].get<std::string>();
    size_t common = 0;
    while (common < before.size() && common < after.size() && before[common] == after[common]) {
      ++common;
    }
    // Where the prompt and the turn part inside a marker (<|START_RESPONSE|>
    // against <|START_ACTION|>), the reply begins at the marker.
    if (size_t open = after.rfind('<', common == 0 ? 0 : common - 1);
        common < before.size() && open != std::string::npos && after.find('>', open) >= common) {
      common = open;
    }
    std::string reply = reply_body(after.substr(common));
    if (reply.find("get_weather") == std::string::npos) continue;
    done.insert({attempt.template_index, attempt.turn});
    const TemplateFile& file = templates[attempt.template_index];
    walked.insert(file.name);
    // A template that renders one call of two (GigaChat) is read for that one.
    size_t rendered_calls = reply.find("get_time") == std::string::npos ? 1 : attempt.calls;
    ToolCallFamily family = detect_tool_call_family(file.source);
    SCOPED_TRACE(file.name + " (" + std::string(family_name(family)) + "), turn " +
                 std::to_string(attempt.turn) + ":\n" + reply);
    ParsedReply parsed =
        parse_tool_calls(reply, family, ToolCallIdGenerator(1), ToolSchemas(walk_tools()));
    EXPECT_EQ(without_turn_end(parsed.content.value_or("")), "");
    EXPECT_EQ(parsed.tool_calls.size(), rendered_calls);
    if (parsed.tool_calls.size() != rendered_calls) continue;
    for (size_t i = 0; i < rendered_calls; ++i) {
      EXPECT_EQ(parsed.tool_calls[i].name, turns[attempt.turn][i].name);
      // Some templates sort the keys (Gemma 4): compared as unordered objects.
      EXPECT_EQ(nlohmann::json::parse(parsed.tool_calls[i].arguments, nullptr, false),
                nlohmann::json::parse(turns[attempt.turn][i].arguments.dump()))
          << parsed.tool_calls[i].arguments;
    }
  }
  std::string names;
  for (const std::string& name : walked) names += " " + name;
  std::printf("%zu templates render tool calls and were walked:%s\n", walked.size(), names.c_str());
  EXPECT_GE(walked.size(), 51u);
}

}  // namespace
}  // namespace ingot::chat::tool_calls
