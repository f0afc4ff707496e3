// `ingot template`: renders a conversation with a template file or the
// template stored in a GGUF model, reports raise_exception() distinctly,
// and measures the render cost with --bench.

#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "cli/run_command.h"
#include "support/shared_data.h"

namespace ingot::testing {
namespace {

std::string write_messages(const std::string& json) {
  std::filesystem::path path = temp_dir() / "messages.json";
  std::ofstream(path, std::ios::binary) << json;
  return path.string();
}

TEST(TemplateCommand, RendersATemplateFile) {
  INGOT_REQUIRE_SHARED();
  std::string messages = write_messages(
      R"([{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Héllo"}])");
  CommandResult result =
      run_command({ingot_binary(), "template", "--template",
                   shared_path("fixtures/templates/Qwen-Qwen3-0.6B.jinja").string(), "--messages",
                   messages, "--kwargs", R"({"enable_thinking": false})"});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.out,
            "<|im_start|>system\nBe brief.<|im_end|>\n<|im_start|>user\nHéllo<|im_end|>\n"
            "<|im_start|>assistant\n<think>\n\n</think>\n\n");
}

TEST(TemplateCommand, UsesTheModelsTemplateAndBosToken) {
  INGOT_REQUIRE_SHARED();
  std::string messages = write_messages(R"([{"role": "user", "content": "Hi"}])");
  CommandResult result = run_command({ingot_binary(), "template", "--model",
                                      shared_path("models/tiny-llama3-f16.gguf").string(),
                                      "--messages", messages, "--no-generation-prompt"});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.out,
            "<|begin_of_text|><|start_header_id|>user<|end_header_id|>\n\nHi<|eot_id|>");
}

TEST(TemplateCommand, RaiseExceptionExitsWithItsMessage) {
  INGOT_REQUIRE_SHARED();
  std::string messages =
      write_messages(R"([{"role": "system", "content": "S"}, {"role": "user", "content": "U"}])");
  CommandResult result =
      run_command({ingot_binary(), "template", "--template",
                   shared_path("fixtures/templates/google-gemma-2-2b-it.jinja").string(),
                   "--messages", messages});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.err.find("System role not supported"), std::string::npos) << result.err;
}

TEST(TemplateCommand, ParseReplyPrintsWhatTheServerWouldAnswer) {
  INGOT_REQUIRE_SHARED();
  std::filesystem::path tools = temp_dir() / "tools.json";
  std::ofstream(tools, std::ios::binary) << R"([{"type": "function", "function": {
      "name": "get_weather", "parameters": {"type": "object", "properties": {
        "city": {"type": "string"}, "days": {"type": "integer"}}}}}])";
  std::filesystem::path reply = temp_dir() / "reply.txt";
  std::ofstream(reply, std::ios::binary)
      << "Thinking it over.\n</think>\n\nLet me look.\n<tool_call>\n<function=get_weather>\n"
         "<parameter=city>\n1984\n</parameter>\n<parameter=days>\n3\n</parameter>\n"
         "</function>\n</tool_call>";
  CommandResult result = run_command({ingot_binary(), "template", "--template",
                                      shared_path("fixtures/templates/Qwen3.5-4B.jinja").string(),
                                      "--tools", tools.string(), "--parse-reply", reply.string()});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  auto answer = nlohmann::json::parse(result.out, nullptr, false);
  ASSERT_TRUE(answer.is_object()) << result.out;
  EXPECT_EQ(answer["content"], "Let me look.");
  EXPECT_EQ(answer["reasoning_content"], "Thinking it over.\n");
  ASSERT_EQ(answer["tool_calls"].size(), 1u);
  EXPECT_EQ(answer["tool_calls"][0]["type"], "function");
  EXPECT_EQ(answer["tool_calls"][0]["function"]["name"], "get_weather");
  EXPECT_EQ(answer["tool_calls"][0]["function"]["arguments"], R"({"city":"1984","days":3})");
}

TEST(TemplateCommand, BenchReportsMicrosecondsPerRender) {
  INGOT_REQUIRE_SHARED();
  CommandResult result =
      run_command({ingot_binary(), "template", "--model",
                   shared_path("models/tiny-qwen3-f16.gguf").string(), "--bench"});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_NE(result.out.find("us per render"), std::string::npos) << result.out;
}

}  // namespace
}  // namespace ingot::testing
