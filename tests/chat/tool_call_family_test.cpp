// Family detection on the real chat templates in ../shared, whether a
// template renders tools, and the system prompt for templates that do not.

#include "chat/tool_calls/tool_call_family.h"

#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "support/shared_data.h"

namespace ingot::chat::tool_calls {
namespace {

std::string read_template(const std::string& name) {
  std::ifstream file(testing::shared_path("fixtures/templates/" + name + ".jinja"));
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

TEST(ToolCallFamily, DetectedFromRealTemplates) {
  INGOT_REQUIRE_SHARED();
  std::map<std::string, ToolCallFamily> expected = {
      {"Qwen-Qwen2.5-7B-Instruct", ToolCallFamily::kHermes},
      {"Qwen-Qwen3-0.6B", ToolCallFamily::kHermes},
      {"Qwen-QwQ-32B", ToolCallFamily::kHermes},
      {"NousResearch-Hermes-2-Pro-Llama-3-8B-tool_use", ToolCallFamily::kHermes},
      {"NousResearch-Hermes-3-Llama-3.1-8B-tool_use", ToolCallFamily::kHermes},
      {"ibm-granite-granite-4.0", ToolCallFamily::kHermes},
      {"meta-llama-Llama-3.1-8B-Instruct", ToolCallFamily::kLlama3},
      {"meta-llama-Llama-3.2-3B-Instruct", ToolCallFamily::kLlama3},
      {"meta-llama-Llama-3.3-70B-Instruct", ToolCallFamily::kLlama3},
      {"mistralai-Mistral-Nemo-Instruct-2407", ToolCallFamily::kMistralArray},
      {"Mistral-Small-3.2-24B-Instruct-2506", ToolCallFamily::kMistralTagged},
      {"unsloth-mistral-Devstral-Small-2507", ToolCallFamily::kMistralTagged},
      {"mistralai-Ministral-3-14B-Reasoning-2512", ToolCallFamily::kMistralTagged},
      {"openai-gpt-oss-120b", ToolCallFamily::kHarmony},
      // Other syntaxes inside <tool_call>, or none: the generic fallback.
      {"Qwen3-Coder", ToolCallFamily::kGeneric},
      {"GLM-4.6", ToolCallFamily::kGeneric},
      {"unsloth-Apriel-1.5", ToolCallFamily::kGeneric},
      {"meetkai-functionary-medium-v3.1", ToolCallFamily::kGeneric},
      {"deepseek-ai-DeepSeek-R1-Distill-Llama-8B", ToolCallFamily::kGeneric},
      {"google-gemma-2-2b-it", ToolCallFamily::kGeneric},
      {"microsoft-Phi-3.5-mini-instruct", ToolCallFamily::kGeneric},
  };
  for (const auto& [name, family] : expected) {
    std::string source = read_template(name);
    ASSERT_FALSE(source.empty()) << name;
    EXPECT_EQ(family_name(detect_tool_call_family(source)), family_name(family)) << name;
  }
}

TEST(ToolCallFamily, WhetherATemplateRendersTools) {
  INGOT_REQUIRE_SHARED();
  EXPECT_TRUE(template_renders_tools(read_template("Qwen-Qwen2.5-7B-Instruct")));
  EXPECT_TRUE(template_renders_tools(read_template("meta-llama-Llama-3.1-8B-Instruct")));
  EXPECT_TRUE(template_renders_tools(read_template("mistralai-Mistral-Nemo-Instruct-2407")));
  EXPECT_FALSE(template_renders_tools(read_template("google-gemma-2-2b-it")));
  EXPECT_FALSE(template_renders_tools(read_template("microsoft-Phi-3.5-mini-instruct")));
  EXPECT_FALSE(template_renders_tools("{{ custom_tools_list }} tools_in_user_message"));
  EXPECT_TRUE(template_renders_tools("{% if tools %}x{% endif %}"));
}

TEST(ToolCallFamily, GenericPromptDescribesToolsAndTheReplyFormat) {
  auto tools = nlohmann::ordered_json::parse(R"([{"type": "function", "function": {
      "name": "get_weather", "description": "Weather now",
      "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}}}])");
  std::string prompt = generic_tool_system_prompt(tools);
  EXPECT_NE(prompt.find(R"("name":"get_weather")"), std::string::npos);
  EXPECT_NE(prompt.find(R"("city":{"type":"string"})"), std::string::npos);
  EXPECT_NE(prompt.find(R"({"tool_calls": [{"name": )"), std::string::npos);

  auto messages = nlohmann::ordered_json::parse(R"([{"role": "user", "content": "hi"}])");
  auto added = with_generic_tool_prompt(messages, tools);
  ASSERT_EQ(added.size(), 2u);
  EXPECT_EQ(added[0]["role"], "system");
  EXPECT_EQ(added[0]["content"], prompt);

  auto with_system = nlohmann::ordered_json::parse(
      R"([{"role": "system", "content": "Be brief."}, {"role": "user", "content": "hi"}])");
  auto merged = with_generic_tool_prompt(with_system, tools);
  ASSERT_EQ(merged.size(), 2u);
  EXPECT_EQ(merged[0]["content"], "Be brief.\n\n" + prompt);
}

}  // namespace
}  // namespace ingot::chat::tool_calls
