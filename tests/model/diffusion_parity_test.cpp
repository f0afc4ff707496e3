// DiffusionGemma's parity with llama.cpp at the pull request that adds it
// (24423, commit c3fb97241295c196e09b783e705e84b96cd1bd74), on the files
// ingot-synth writes for tiny-diffusion-gemma in F16 and Q8_0: the
// encoder's logits of each prompt position, a canvas step's logits on a
// first step and self-conditioned on fixed logits, within the golden
// tolerance (the replies of the same fixtures:
// tests/engine/diffusion_reply_parity_test.cpp). The fixtures in
// tests/fixtures/diffusion were made by tools/oracle/diffusion_logits.cpp
// (that folder's README has the command).

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "model/golden_parity.h"
#include "support/shared_data.h"
#include "support/synthetic_model.h"

namespace ingot::model {
namespace {

using namespace golden;

std::vector<GoldenStep> rows_of(const nlohmann::json& rows) {
  std::vector<GoldenStep> out;
  for (const auto& row : rows) out.push_back(golden_step(row));
  return out;
}

// The same formula as the oracle's.
float conditioning_logit(int64_t position, int64_t token) {
  return float((uint64_t(token) * 2654435761u + uint64_t(position) * 40503u) % 1000u) / 100.0f;
}

class DiffusionParity : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    INGOT_REQUIRE_SHARED();
    std::ifstream in(ingot::testing::source_dir() / "tests/fixtures/diffusion" /
                     (GetParam() + ".json"));
    fixture_ = nlohmann::json::parse(in);
    auto loaded = Model::load(ingot::testing::synthetic_model(
        GetParam().substr(0, GetParam().rfind('-')), GetParam().substr(GetParam().rfind('-') + 1)));
    ASSERT_TRUE(loaded.ok()) << loaded.error().describe();
    model_ = std::move(loaded).value();
  }

  double tolerance() const { return tolerance_for(GetParam()); }

  void compare_rows(const Logits& logits, const std::vector<GoldenStep>& golden, Parity& parity,
                    size_t case_index) const {
    ASSERT_EQ(size_t(logits.n_rows), golden.size());
    for (size_t r = 0; r < golden.size(); ++r) {
      parity.add(compare(logits.row(int64_t(r)), logits.n_vocab, golden[r], tolerance()),
                 case_index, r);
    }
  }

  // The prompt through the causal pass, every position's logits compared.
  void encode(const std::vector<int32_t>& tokens, int64_t start, KvCache& cache,
              const std::vector<GoldenStep>* golden, Parity* parity, size_t case_index) {
    Batch batch;
    for (size_t i = 0; i < tokens.size(); ++i) batch.add(tokens[i], start + int64_t(i), 0, true);
    auto logits = model_->forward(batch, cache, pool_);
    ASSERT_TRUE(logits.ok()) << logits.error().describe();
    if (golden) compare_rows(*logits, *golden, *parity, case_index);
  }

  Result<Logits> canvas_step(const std::vector<int32_t>& canvas, int64_t start, KvCache& cache,
                             const std::vector<const float*>& previous) {
    Batch batch;
    for (size_t i = 0; i < canvas.size(); ++i) batch.add(canvas[i], start + int64_t(i), 0, true);
    return model_->forward_canvas(batch, previous, cache, pool_);
  }

  nlohmann::json fixture_;
  std::unique_ptr<Model> model_;
  ThreadPool pool_{2};
};

TEST_P(DiffusionParity, EncoderAndCanvasStepLogitsMatchTheReference) {
  Parity encoder_parity, first_parity, conditioned_parity;
  const auto n_vocab = size_t(model_->config().n_vocab);
  const float temperature = fixture_["conditioning_temperature"].get<float>();
  for (size_t c = 0; c < fixture_["cases"].size(); ++c) {
    const nlohmann::json& spec = fixture_["cases"][c];
    const auto prompt = spec["prompt_tokens"].get<std::vector<int32_t>>();
    const auto canvas = spec["canvas"].get<std::vector<int32_t>>();
    KvCache cache = model_->make_cache(512);
    const std::vector<GoldenStep> encoder = rows_of(spec["encoder"]);
    encode(prompt, 0, cache, &encoder, &encoder_parity, c);

    const auto start = int64_t(prompt.size());
    auto first = canvas_step(canvas, start, cache, std::vector<const float*>(canvas.size()));
    ASSERT_TRUE(first.ok()) << first.error().describe();
    compare_rows(*first, rows_of(spec["canvas_first"]), first_parity, c);

    std::vector<float> probabilities(canvas.size() * n_vocab);
    std::vector<const float*> previous;
    for (size_t p = 0; p < canvas.size(); ++p) {
      float* row = probabilities.data() + p * n_vocab;
      double total = 0;
      for (size_t v = 0; v < n_vocab; ++v) {
        row[v] = std::exp(conditioning_logit(int64_t(p), int64_t(v)) / temperature);
        total += row[v];
      }
      for (size_t v = 0; v < n_vocab; ++v) row[v] = float(row[v] / total);
      previous.push_back(row);
    }
    auto conditioned = canvas_step(canvas, start, cache, previous);
    ASSERT_TRUE(conditioned.ok()) << conditioned.error().describe();
    compare_rows(*conditioned, rows_of(spec["canvas_conditioned"]), conditioned_parity, c);
  }
  const std::string& name = GetParam();
  encoder_parity.expect_within(tolerance(), name + " encoder");
  first_parity.expect_within(tolerance(), name + " canvas");
  conditioned_parity.expect_within(tolerance(), name + " conditioned");
}

INSTANTIATE_TEST_SUITE_P(Files, DiffusionParity,
                         ::testing::Values("tiny-diffusion-gemma-f16",
                                           "tiny-diffusion-gemma-q8_0"));

}  // namespace
}  // namespace ingot::model
