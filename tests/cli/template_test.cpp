// `ingot template`: renders a conversation with a template file or the
// template stored in a GGUF model, reports raise_exception() distinctly,
// and measures the render cost with --bench.

#include <gtest/gtest.h>

#include <fstream>
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
