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
  std::ifstream file(ingot::testing::shared_path("fixtures/templates/" + name + ".jinja"));
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

TEST(ToolCallFamily, DetectedFromRealTemplates) {
  INGOT_REQUIRE_SHARED();
  // Every shared template; "generic" where the template writes no call
  // syntax of its own.
  std::map<std::string, std::string> expected = {
      {"Apertus-8B-Instruct", "apertus"},
      {"Apriel-1.6-15b-Thinker-fixed", "apriel"},
      {"Bielik-11B-v3.0-Instruct", "hermes"},
      {"ByteDance-Seed-OSS", "seed-oss"},
      {"Cohere2MoE", "command-r7b"},
      {"CohereForAI-c4ai-command-r-plus-tool_use", "command-r-plus"},
      {"CohereForAI-c4ai-command-r7b-12-2024-tool_use", "command-r7b"},
      {"GLM-4.6", "glm"},
      {"GLM-4.7-Flash", "glm"},
      {"GigaChat3-10B-A1.8B", "gigachat3"},
      {"GigaChat3.1-10B-A1.8B", "gigachat3.1"},
      {"HuggingFaceTB-SmolLM3-3B", "generic"},
      {"Kimi-K2-Instruct", "kimi-k2"},
      {"Kimi-K2-Thinking", "kimi-k2"},
      {"LFM2-8B-A1B", "pythonic"},
      {"LFM2.5-8B-A1B", "pythonic"},
      {"LFM2.5-Instruct", "pythonic"},
      {"MiMo-VL", "hermes"},
      {"MiniMax-M2", "minimax-m2"},
      {"MiniMax-M3", "minimax-m3"},
      {"Mistral-Small-3.2-24B-Instruct-2506", "mistral-tagged"},
      {"NVIDIA-Nemotron-3-Nano-30B-A3B-BF16", "qwen3-coder"},
      {"NVIDIA-Nemotron-Nano-v2", "nemotron-v2"},
      {"NousResearch-Hermes-2-Pro-Llama-3-8B-tool_use", "hermes"},
      {"NousResearch-Hermes-3-Llama-3.1-8B-tool_use", "hermes"},
      {"Qwen-QwQ-32B", "hermes"},
      {"Qwen-Qwen2.5-7B-Instruct", "hermes"},
      {"Qwen-Qwen3-0.6B", "hermes"},
      {"Qwen3-Coder", "qwen3-coder"},
      {"Qwen3.5-4B", "qwen3-coder"},
      {"Reka-Edge", "hermes"},
      {"StepFun3.5-Flash", "qwen3-coder"},
      {"deepseek-ai-DeepSeek-R1-Distill-Llama-8B", "deepseek-r1"},
      {"deepseek-ai-DeepSeek-R1-Distill-Qwen-32B", "deepseek-r1"},
      {"deepseek-ai-DeepSeek-V3.1", "deepseek-v3.1"},
      {"deepseek-ai-DeepSeek-V3.2", "deepseek-v3.2-dsml"},
      {"deepseek-ai-DeepSeek-V4-Flash-0731", "deepseek-v4-dsml"},
      {"deepseek-ai-DeepSeek-V4", "deepseek-v4-dsml"},
      {"fireworks-ai-llama-3-firefunction-v2", "generic"},
      {"google-gemma-2-2b-it", "generic"},
      {"google-gemma-4-31B-it-interleaved", "gemma4"},
      {"google-gemma-4-31B-it", "gemma4"},
      {"ibm-granite-granite-3.3-2B-Instruct", "granite3"},
      {"ibm-granite-granite-4.0", "hermes"},
      {"ibm-granite-granite-4.1", "hermes"},
      {"llama-cpp-deepseek-r1", "deepseek-r1"},
      {"llama-cpp-rwkv-world", "generic"},
      {"meetkai-functionary-medium-v3.1", "functionary-v3.1"},
      {"meetkai-functionary-medium-v3.2", "functionary-v3.2"},
      {"meta-llama-Llama-3.1-8B-Instruct", "llama3"},
      {"meta-llama-Llama-3.2-3B-Instruct", "llama3"},
      {"meta-llama-Llama-3.3-70B-Instruct", "llama3"},
      {"microsoft-Phi-3.5-mini-instruct", "generic"},
      {"mistralai-Ministral-3-14B-Reasoning-2512", "mistral-tagged"},
      {"mistralai-Mistral-Nemo-Instruct-2407", "mistral-array"},
      {"moonshotai-Kimi-K2", "kimi-k2"},
      {"openai-gpt-oss-120b", "harmony"},
      {"openbmb-MiniCPM5-1B", "minicpm"},
      {"poolside-Laguna-S-2.1", "glm"},
      {"poolside-Laguna-XS-2.1", "glm"},
      {"poolside-Laguna-XS.2", "glm"},
      {"tencent-Hy3", "hunyuan"},
      {"unsloth-Apriel-1.5", "apriel"},
      {"unsloth-mistral-Devstral-Small-2507", "mistral-tagged"},
      {"upstage-Solar-Open-100B", "solar-open"},
  };

  for (const auto& [name, family] : expected) {
    std::string source = read_template(name);
    ASSERT_FALSE(source.empty()) << name;
    EXPECT_EQ(family_name(detect_tool_call_family(source)), family) << name;
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
