// Golden parity with llama.cpp on the shared models (see golden_parity.h).

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "model/golden_parity.h"
#include "support/shared_data.h"

namespace ingot::model {
namespace {

using namespace golden;

std::vector<GoldenCase> read_golden(const std::string& name) {
  return read_golden_file(
      ingot::testing::shared_path("fixtures/golden/" + name + ".json").string());
}

class GoldenParity : public ::testing::TestWithParam<std::string> {};

TEST_P(GoldenParity, TeacherForcedLogitsMatchLlamaCpp) {
  INGOT_REQUIRE_SHARED();
  const std::string name = GetParam();
  auto model = Model::load(ingot::testing::shared_path("models/" + name + ".gguf").string());
  ASSERT_TRUE(model.ok()) << model.error().describe();
  ThreadPool pool(2);
  const std::vector<GoldenCase> cases = read_golden(name);
  const double tolerance = tolerance_for(name);
  run_sequentially(**model, cases, tolerance, pool).expect_within(tolerance, name);
}

TEST_P(GoldenParity, InterleavedSequencesInOneBatchGiveTheSameLogits) {
  INGOT_REQUIRE_SHARED();
  const std::string name = GetParam();
  auto model = Model::load(ingot::testing::shared_path("models/" + name + ".gguf").string());
  ASSERT_TRUE(model.ok()) << model.error().describe();
  ThreadPool pool(2);
  const std::vector<GoldenCase> cases = read_golden(name);
  const double tolerance = tolerance_for(name);
  run_interleaved(**model, cases, tolerance, pool).expect_within(tolerance, name + " (batched)");
}

INSTANTIATE_TEST_SUITE_P(SharedModels, GoldenParity,
                         ::testing::Values("stories260K", "tiny-qwen2-f16", "tiny-qwen3-f16",
                                           "tiny-llama3-f16", "small-llama-f16", "small-llama-q8_0",
                                           "small-llama-q4_0", "small-llama-q4_1",
                                           "small-llama-q5_0", "small-llama-q5_1",
                                           "small-llama-q2_k", "small-llama-q3_k_m",
                                           "small-llama-q4_k_m", "small-llama-q5_k_m",
                                           "small-llama-q6_k"),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           std::string name = info.param;
                           std::replace(name.begin(), name.end(), '-', '_');
                           return name;
                         });

}  // namespace
}  // namespace ingot::model
