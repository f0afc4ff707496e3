// The multi-token-prediction block against llama.cpp's (its qwen35 MTP
// graph): the trunk runs each prompt keeping every hidden state, then the
// block runs the same tokens, token i paired with the trunk's state at
// i - 1 (zeros for the first), and each position's logits are compared.
// The fixtures (tests/fixtures/golden/*-mtp.json) were made so; see that
// folder's README.

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <tuple>
#include <vector>

#include "model/golden_parity.h"
#include "support/shared_data.h"
#include "support/synthetic_model.h"

namespace ingot::model {
namespace {

using namespace golden;

// A shape and a weight type: the dense block, and the mixture's (its
// feed-forward routed experts and a shared one) in F16 only, for the reason
// synthetic_golden_test.cpp gives: quantized activations' rounding flips
// nearly tied expert choices of its random router.
class PredictionGoldenParity
    : public ::testing::TestWithParam<std::tuple<std::string, std::string>> {};

TEST_P(PredictionGoldenParity, TeacherForcedLogitsMatchLlamaCpp) {
  INGOT_REQUIRE_SHARED();
  const auto& [shape, type] = GetParam();
  auto model = Model::load(ingot::testing::synthetic_model(shape, type));
  ASSERT_TRUE(model.ok()) << model.error().describe();
  ASSERT_TRUE((*model)->has_prediction_block());
  const std::vector<GoldenCase> cases = read_golden_file(
      (ingot::testing::source_dir() / "tests/fixtures/golden" / (shape + "-" + type + "-mtp.json"))
          .string());
  const int64_t n_embd = (*model)->config().n_embd;
  const double tolerance = tolerance_for(type);
  ThreadPool pool(2);
  KvCache cache = (*model)->make_cache(512);
  KvCache prediction_cache = (*model)->make_prediction_cache(512);
  Parity parity;
  for (size_t c = 0; c < cases.size(); ++c) {
    const std::vector<int32_t>& prompt = cases[c].prompt;
    const auto sequence = SequenceId(c);
    Batch batch;
    for (size_t i = 0; i < prompt.size(); ++i) batch.add(prompt[i], int64_t(i), sequence, false);
    batch.keep_hidden();
    Result<Logits> trunk = (*model)->forward(batch, cache, pool);
    ASSERT_TRUE(trunk.ok()) << trunk.error().describe();
    ASSERT_NE(trunk->hidden, nullptr);
    std::vector<float> shifted(prompt.size() * size_t(n_embd), 0.0f);
    std::copy_n(trunk->hidden, (prompt.size() - 1) * size_t(n_embd), shifted.begin() + n_embd);

    batch.clear();
    for (size_t i = 0; i < prompt.size(); ++i) batch.add(prompt[i], int64_t(i), sequence, true);
    Result<Logits> predicted =
        (*model)->forward_prediction(batch, shifted.data(), prediction_cache, pool);
    ASSERT_TRUE(predicted.ok()) << predicted.error().describe();
    ASSERT_EQ(predicted->n_rows, int64_t(prompt.size()));
    for (size_t i = 0; i < cases[c].steps.size(); ++i) {
      parity.add(
          compare(predicted->row(int64_t(i)), predicted->n_vocab, cases[c].steps[i], tolerance), c,
          i);
    }
  }
  parity.expect_within(tolerance, shape + "-" + type + " mtp");
}

std::string parameter_name(
    const ::testing::TestParamInfo<std::tuple<std::string, std::string>>& info) {
  std::string name = std::get<0>(info.param) + "_" + std::get<1>(info.param);
  std::replace(name.begin(), name.end(), '-', '_');
  return name;
}

INSTANTIATE_TEST_SUITE_P(SynthesizedModels, PredictionGoldenParity,
                         ::testing::Values(std::tuple{"tiny-qwen35", "f16"},
                                           std::tuple{"tiny-qwen35", "q8_0"},
                                           std::tuple{"tiny-qwen35", "q4_k_m"},
                                           std::tuple{"tiny-qwen35moe", "f16"}),
                         parameter_name);

TEST(PredictionBlock, ModelsWithoutOneSayTheyHaveNone) {
  INGOT_REQUIRE_SHARED();
  auto model = Model::load(ingot::testing::synthetic_model("tiny", "f16"));
  ASSERT_TRUE(model.ok()) << model.error().describe();
  EXPECT_FALSE((*model)->has_prediction_block());
  KvCache cache = (*model)->make_prediction_cache(32);
  Batch batch;
  batch.add(1, 0, 0, true);
  std::vector<float> hidden(size_t((*model)->config().n_embd), 0.0f);
  ThreadPool pool(1);
  Result<Logits> logits = (*model)->forward_prediction(batch, hidden.data(), cache, pool);
  ASSERT_FALSE(logits.ok());
  EXPECT_EQ(logits.error().kind(), ErrorKind::kUnsupported);
}

}  // namespace
}  // namespace ingot::model
