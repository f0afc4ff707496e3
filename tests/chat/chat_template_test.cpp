// render_chat_prompt and ChatTemplate: what the template sees (parsed
// tool-call arguments, tools as None when absent, extra kwargs), errors,
// and one parsed template rendered from several threads at once.

#include "chat/chat_template.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

namespace ingot::chat {
namespace {

using Json = nlohmann::ordered_json;

TEST(ChatTemplate, ToolCallArgumentsReachTheTemplateAsObjects) {
  Json messages = Json::parse(R"([
    {"role": "assistant", "content": null, "tool_calls": [
      {"type": "function", "function": {"name": "f", "arguments": "{\"b\": 1, \"a\": [true]}"}},
      {"type": "function", "function": {"name": "g", "arguments": "not json"}}]}])");
  Json normalized = normalize_messages(messages);
  EXPECT_EQ(normalized[0]["tool_calls"][0]["function"]["arguments"],
            Json::parse(R"({"b": 1, "a": [true]})"));
  EXPECT_EQ(normalized[0]["tool_calls"][1]["function"]["arguments"], "not json");
  EXPECT_EQ(normalized[0]["content"], "");  // null beside tool_calls: a string for templates
  EXPECT_TRUE(
      normalize_messages(Json::parse(R"([{"role": "assistant", "content": null}])"))[0]["content"]
          .is_null());

  ChatPromptInput input;
  input.messages = messages;
  Result<std::string> rendered = render_chat_prompt(
      "{% for m in messages %}{% for c in m.tool_calls %}{{ c.function.name }}:"
      "{{ c.function.arguments | tojson }};{% endfor %}{% endfor %}",
      input);
  ASSERT_TRUE(rendered.ok()) << rendered.error().describe();
  EXPECT_EQ(*rendered, R"(f:{"b": 1, "a": [true]};g:"not json";)");
}

TEST(ChatTemplate, ContextHasTransformersVariables) {
  ChatPromptInput input;
  input.messages = Json::parse(R"([{"role": "user", "content": "hi"}])");
  input.add_generation_prompt = false;
  input.bos_token = "<s>";
  input.eos_token = "</s>";
  input.extra_kwargs = {{"enable_thinking", false}};
  Result<std::string> rendered = render_chat_prompt(
      "{{ bos_token }}{{ tools is none }}{{ documents is none }}{{ add_generation_prompt }}"
      "{{ enable_thinking }}{{ eos_token }}{{ messages[0]['content'] }}",
      input);
  ASSERT_TRUE(rendered.ok()) << rendered.error().describe();
  EXPECT_EQ(*rendered, "<s>TrueTrueFalseFalse</s>hi");
}

TEST(ChatTemplate, ErrorsKeepTheirKinds) {
  ChatPromptInput input;
  Result<std::string> raised = render_chat_prompt("{{ raise_exception('no tools') }}", input);
  ASSERT_FALSE(raised.ok());
  EXPECT_EQ(raised.error().kind(), ErrorKind::kTemplateRaised);
  EXPECT_EQ(raised.error().message(), "no tools");
  Result<ChatTemplate> bad = ChatTemplate::parse("{% for %}");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().kind(), ErrorKind::kInvalidFormat);
}

TEST(ChatTemplate, RendersFromSeveralThreadsAtOnce) {
  Result<ChatTemplate> tmpl = ChatTemplate::parse(
      "{% set ns = namespace(n=0) %}{% macro show(m) %}[{{ m.role }}] {{ m.content }}{% endmacro %}"
      "{% for m in messages %}{% set ns.n = ns.n + 1 %}{{ show(m) }}\n{% endfor %}{{ ns.n }}");
  ASSERT_TRUE(tmpl.ok());
  ChatPromptInput input;
  for (int i = 0; i < 20; ++i) {
    input.messages.push_back(
        {{"role", i % 2 ? "assistant" : "user"}, {"content", std::to_string(i)}});
  }
  std::string expected = tmpl->render(input).value();
  std::vector<std::thread> threads;
  std::vector<int> matches(4, 0);
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 50; ++i) {
        Result<std::string> out = tmpl->render(input);
        matches[t] += out.ok() && *out == expected ? 1 : 0;
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  for (int count : matches) EXPECT_EQ(count, 50);
}

}  // namespace
}  // namespace ingot::chat
