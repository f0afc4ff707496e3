// `ingot run` and `ingot bench` as a user runs them.

#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "cli/run_command.h"
#include "support/shared_data.h"
#include "support/synthetic_model.h"

namespace ingot::testing {
namespace {

std::string golden_text(const std::string& golden, size_t case_index) {
  std::ifstream in(shared_path("fixtures/golden/" + golden));
  const nlohmann::json json = nlohmann::json::parse(in);
  const std::string hex = json["cases"][case_index]["text_hex"];
  std::string text;
  for (size_t i = 0; i + 1 < hex.size(); i += 2) {
    text.push_back(char(std::stoi(hex.substr(i, 2), nullptr, 16)));
  }
  return text;
}

TEST(Run, GreedyStories260KPrintsTheGoldenContinuation) {
  INGOT_REQUIRE_SHARED();
  CommandResult result = run_command(
      {ingot_binary(), "run", "--model", shared_path("models/stories260K.gguf").string(), "-p",
       "Once upon a time", "-n", "64", "--temp", "0", "--threads", "1"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.out, golden_text("stories260K.json", 0) + "\n");
}

TEST(Run, RefusesAMissingModelWithOneLine) {
  CommandResult result =
      run_command({ingot_binary(), "run", "--model", "/nonexistent.gguf", "-p", "x"});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_NE(result.err.find("error: "), std::string::npos);
}

// Until the canvas loop serves it, a diffusion model's causal pass must not
// pass for its generation.
TEST(Run, RefusesADiffusionModelItCannotGenerateWith) {
  INGOT_REQUIRE_SHARED();
  const std::string model = synthetic_model("tiny-diffusion-gemma", "q8_0");
  for (const char* command : {"run", "bench"}) {
    CommandResult result = run_command({ingot_binary(), command, "--model", model, "-p", "4"});
    EXPECT_EQ(result.exit_code, 1) << command;
    EXPECT_NE(result.err.find("DiffusionGemma"), std::string::npos) << result.err;
  }
}

TEST(Bench, ReportsEveryTestAsJson) {
  INGOT_REQUIRE_SHARED();
  CommandResult result = run_command(
      {ingot_binary(), "bench", "--model", shared_path("models/stories260K.gguf").string(), "-p",
       "16", "-n", "4", "-r", "2", "--threads", "1", "--parallel", "3", "--json"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const nlohmann::json report = nlohmann::json::parse(result.out);
  ASSERT_EQ(report["results"].size(), 3u);
  EXPECT_EQ(report["results"][0]["test"], "pp16");
  EXPECT_EQ(report["results"][1]["test"], "tg4");
  EXPECT_EQ(report["results"][2]["test"], "tg4 x3");
  for (const auto& test : report["results"]) {
    EXPECT_EQ(test["samples_ts"].size(), 2u);
    EXPECT_GT(test["avg_ts"].get<double>(), 0.0);
  }
}

}  // namespace
}  // namespace ingot::testing
