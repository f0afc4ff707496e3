// `ingot embed`: one normalized vector per input, from -p or a file, equal
// to llama.cpp's pooled embedding (tests/fixtures/embeddings), as JSON too.

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "cli/run_command.h"
#include "support/shared_data.h"
#include "support/synthetic_model.h"

namespace ingot::testing {
namespace {

using nlohmann::json;

json fixture() {
  std::ifstream in(source_dir() / "tests/fixtures/embeddings/tiny-f16-last.json");
  return json::parse(in);
}

std::vector<std::vector<double>> lines_of_numbers(const std::string& text) {
  std::vector<std::vector<double>> rows;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    std::istringstream numbers(line);
    rows.emplace_back();
    for (double x; numbers >> x;) rows.back().push_back(x);
  }
  return rows;
}

double cosine(const std::vector<double>& a, const std::vector<double>& b) {
  double dot = 0, aa = 0, bb = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    dot += a[i] * b[i];
    aa += a[i] * a[i];
    bb += b[i] * b[i];
  }
  return dot / std::sqrt(aa * bb);
}

TEST(Embed, PrintsLlamaCppsEmbeddingOfEachInputNormalized) {
  INGOT_REQUIRE_SHARED();
  const json expected = fixture();
  const std::string model = synthetic_model("tiny", "f16");
  std::vector<std::string> argv = {ingot_binary(), "embed", "-m", model};
  for (const json& c : expected["cases"]) {
    argv.push_back("-p");
    argv.push_back(c["prompt"]);
  }
  CommandResult result = run_command(argv);
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const auto rows = lines_of_numbers(result.out);
  ASSERT_EQ(rows.size(), expected["cases"].size());
  for (size_t i = 0; i < rows.size(); ++i) {
    const auto reference = expected["cases"][i]["embedding"].get<std::vector<double>>();
    ASSERT_EQ(rows[i].size(), reference.size());
    EXPECT_GE(cosine(rows[i], reference), 0.9999) << i;
    double norm = 0;
    for (double x : rows[i]) norm += x * x;
    EXPECT_NEAR(norm, 1.0, 1e-4);
  }
}

TEST(Embed, ReadsAFileOfInputsAndWritesJson) {
  INGOT_REQUIRE_SHARED();
  const std::filesystem::path file = temp_dir() / "embed-inputs.txt";
  std::ofstream(file) << "first line\n\nsecond line\n";
  CommandResult result = run_command({ingot_binary(), "embed", "-m", synthetic_model("tiny", "f16"),
                                      "-f", file.string(), "--json", "--dimensions", "16"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const json out = json::parse(result.out);
  ASSERT_EQ(out.size(), 2u);  // the empty line is not an input
  EXPECT_EQ(out[1]["index"], 1);
  EXPECT_EQ(out[0]["embedding"].size(), 16u);
  CommandResult none = run_command({ingot_binary(), "embed", "-m", "unused.gguf"});
  EXPECT_EQ(none.exit_code, 1);
  EXPECT_NE(none.err.find("no input"), std::string::npos) << none.err;
}

}  // namespace
}  // namespace ingot::testing
