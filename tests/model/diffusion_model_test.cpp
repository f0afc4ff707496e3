// DiffusionGemma as ingot loads it (Gemma 4's mixture with a canvas, the
// sampler's defaults, an encoder and a decoder scale per layer, the
// self-conditioning block) and its canvas step's contract: the cache left
// as it was, the canvas seen both ways, canvases batched apart, the
// previous step's probabilities fed back.

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "model/model.h"
#include "support/shared_data.h"
#include "support/synthetic_model.h"

namespace ingot::model {
namespace {

class DiffusionGemma : public ::testing::Test {
 protected:
  // One model for the suite: loading it costs more than a test.
  static void SetUpTestSuite() {
    if (ingot::testing::shared_dir().empty()) return;
    auto loaded = Model::load(ingot::testing::synthetic_model("tiny-diffusion-gemma", "f16"));
    ASSERT_TRUE(loaded.ok()) << loaded.error().describe();
    model_ = std::move(loaded).value().release();
  }
  static void TearDownTestSuite() {
    delete model_;
    model_ = nullptr;
  }
  void SetUp() override {
    INGOT_REQUIRE_SHARED();
    ASSERT_NE(model_, nullptr);
    canvas_ = model_->config().diffusion.canvas_length;
  }

  // The prompt's keys and values cached for `sequence`, by the causal pass.
  void encode(KvCache& cache, SequenceId sequence, const std::vector<int32_t>& prompt) {
    Batch batch;
    for (size_t i = 0; i < prompt.size(); ++i) {
      batch.add(prompt[i], int64_t(i), sequence, i + 1 == prompt.size());
    }
    ASSERT_TRUE(model_->forward(batch, cache, pool_).ok());
  }

  std::vector<int32_t> random_canvas(uint32_t seed) const {
    std::mt19937 rng(seed);
    std::uniform_int_distribution<int32_t> token(0, int32_t(model_->config().n_vocab) - 1);
    std::vector<int32_t> canvas(static_cast<size_t>(canvas_));
    for (int32_t& t : canvas) t = token(rng);
    return canvas;
  }

  static void add_canvas(Batch& batch, const std::vector<int32_t>& canvas, int64_t start,
                         SequenceId sequence) {
    for (size_t i = 0; i < canvas.size(); ++i)
      batch.add(canvas[i], start + int64_t(i), sequence, true);
  }

  // The step's logits, copied out of the pass's buffer.
  std::vector<float> step(const Batch& batch, KvCache& cache,
                          const std::vector<const float*>& previous) {
    auto logits = model_->forward_canvas(batch, previous, cache, pool_);
    EXPECT_TRUE(logits.ok()) << logits.error().describe();
    if (!logits.ok()) return {};
    EXPECT_EQ(logits->n_rows, batch.size());
    return std::vector<float>(logits->data, logits->data + logits->n_rows * logits->n_vocab);
  }

  static inline Model* model_ = nullptr;
  int64_t canvas_ = 0;
  ThreadPool pool_{2};
};

TEST_F(DiffusionGemma, ReadsItsCanvasSamplerDefaultsAndGemma4Layout) {
  const ModelConfig& c = model_->config();
  EXPECT_EQ(c.traits.architecture, Architecture::kDiffusionGemma);
  EXPECT_TRUE(c.traits.diffusion);
  EXPECT_TRUE(c.causal);  // the encoder's pass; canvases are bidirectional
  EXPECT_EQ(c.diffusion.canvas_length, 32);
  EXPECT_EQ(c.diffusion.max_steps, 48);
  EXPECT_FLOAT_EQ(c.diffusion.t_min, 0.4f);
  EXPECT_FLOAT_EQ(c.diffusion.t_max, 0.8f);
  EXPECT_FLOAT_EQ(c.diffusion.entropy_bound, 0.1f);
  EXPECT_EQ(c.diffusion.stability_steps, 1);
  EXPECT_FLOAT_EQ(c.diffusion.confidence, 0.005f);
  EXPECT_EQ(c.swa.layers, (std::vector<bool>{true, false, true, false}));
  EXPECT_EQ(c.experts.count, 2);
  EXPECT_EQ(c.experts.used, 2);
  EXPECT_FLOAT_EQ(c.gemma.final_softcap, 30.0f);
}

TEST_F(DiffusionGemma, BindsBothScalesOfEachLayerAndTheSelfConditioningBlock) {
  const ModelConfig& c = model_->config();
  const ModelWeights& w = model_->weights();
  for (const LayerWeights& layer : w.layers) {
    // ingot-synth draws each scale from [0.5, 1.5): two draws never agree.
    EXPECT_NE(layer.output_scale, layer.canvas_output_scale);
    EXPECT_GE(layer.canvas_output_scale, 0.5f);
  }
  ASSERT_TRUE(w.self_conditioning.has_value());
  EXPECT_EQ(w.self_conditioning->pre_norm.size(), size_t(c.n_embd));
  EXPECT_EQ(w.self_conditioning->gate.rows, c.n_ff);
  EXPECT_EQ(w.self_conditioning->down.rows, c.n_embd);
  EXPECT_TRUE(w.tied_output);
}

double max_difference(const std::vector<float>& a, const std::vector<float>& b, size_t first,
                      size_t count) {
  double most = 0;
  for (size_t i = first; i < first + count; ++i)
    most = std::max(most, double(std::abs(a[i] - b[i])));
  return most;
}

TEST_F(DiffusionGemma, ACanvasStepLeavesTheCacheAsItWasAndGivesEveryPositionFiniteLogits) {
  KvCache cache = model_->make_cache(256);
  encode(cache, 0, {1, 2, 3, 4, 5});
  const int64_t free_before = cache.free_cells();
  Batch batch;
  add_canvas(batch, random_canvas(1), 5, 0);
  const std::vector<float> logits =
      step(batch, cache, std::vector<const float*>(size_t(canvas_), nullptr));
  ASSERT_EQ(int64_t(logits.size()), canvas_ * model_->config().n_vocab);
  for (float v : logits) ASSERT_TRUE(std::isfinite(v));
  EXPECT_EQ(cache.sequence_length(0), 5);
  EXPECT_EQ(cache.free_cells(), free_before);
}

// A causal pass would leave the first position's logits alone.
TEST_F(DiffusionGemma, EachCanvasPositionSeesTheWholeCanvas) {
  KvCache cache = model_->make_cache(256);
  encode(cache, 0, {1, 2, 3, 4, 5});
  std::vector<int32_t> canvas = random_canvas(2);
  const std::vector<const float*> first_step(size_t(canvas_), nullptr);
  Batch batch;
  add_canvas(batch, canvas, 5, 0);
  const std::vector<float> before = step(batch, cache, first_step);
  canvas.back() = (canvas.back() + 1) % int32_t(model_->config().n_vocab);
  batch.clear();
  add_canvas(batch, canvas, 5, 0);
  const std::vector<float> after = step(batch, cache, first_step);
  const auto n_vocab = size_t(model_->config().n_vocab);
  EXPECT_GT(max_difference(before, after, 0, n_vocab), 1e-4);
}

TEST_F(DiffusionGemma, CanvasesOfTwoSequencesInOneBatchGiveEachItsOwnLogits) {
  KvCache cache = model_->make_cache(512);
  encode(cache, 0, {1, 2, 3, 4, 5});
  encode(cache, 1, {9, 8, 7});
  const std::vector<int32_t> a = random_canvas(3), b = random_canvas(4);
  const std::vector<const float*> one(size_t(canvas_), nullptr), two(size_t(2 * canvas_), nullptr);
  Batch batch;
  add_canvas(batch, a, 5, 0);
  const std::vector<float> alone_a = step(batch, cache, one);
  batch.clear();
  add_canvas(batch, b, 3, 1);
  const std::vector<float> alone_b = step(batch, cache, one);
  batch.clear();
  add_canvas(batch, a, 5, 0);
  add_canvas(batch, b, 3, 1);
  const std::vector<float> together = step(batch, cache, two);
  const size_t rows = size_t(canvas_ * model_->config().n_vocab);
  std::vector<float> joined = alone_a;
  joined.insert(joined.end(), alone_b.begin(), alone_b.end());
  EXPECT_LT(max_difference(together, joined, 0, 2 * rows), 1e-3);
}

// The previous step's probabilities reach the input only through the
// self-conditioning block: none on a first step, and they change a later one.
TEST_F(DiffusionGemma, SelfConditioningFeedsThePreviousStepsProbabilities) {
  KvCache cache = model_->make_cache(256);
  encode(cache, 0, {1, 2, 3});
  const auto n_vocab = size_t(model_->config().n_vocab);
  std::vector<float> peaked(n_vocab, 0.0f), flat(n_vocab, 1.0f / float(n_vocab));
  peaked[42] = 1.0f;
  Batch batch;
  add_canvas(batch, random_canvas(5), 3, 0);
  const std::vector<float> first =
      step(batch, cache, std::vector<const float*>(size_t(canvas_), nullptr));
  const std::vector<float> after_peaked =
      step(batch, cache, std::vector<const float*>(size_t(canvas_), peaked.data()));
  const std::vector<float> after_flat =
      step(batch, cache, std::vector<const float*>(size_t(canvas_), flat.data()));
  EXPECT_GT(max_difference(first, after_peaked, 0, n_vocab), 1e-4);
  EXPECT_GT(max_difference(after_flat, after_peaked, 0, n_vocab), 1e-4);
}

TEST_F(DiffusionGemma, ACanvasStepRefusesEntriesThatAreNotWholeCanvasesAfterTheCache) {
  KvCache cache = model_->make_cache(256);
  encode(cache, 0, {1, 2, 3});
  Batch batch;
  add_canvas(batch, random_canvas(6), 4, 0);  // a gap after the cache
  EXPECT_FALSE(
      model_
          ->forward_canvas(batch, std::vector<const float*>(size_t(canvas_), nullptr), cache, pool_)
          .ok());
  batch.clear();
  batch.add(1, 3, 0, true);  // not a whole canvas
  EXPECT_FALSE(
      model_->forward_canvas(batch, std::vector<const float*>(1, nullptr), cache, pool_).ok());
  EXPECT_EQ(cache.sequence_length(0), 3);
}

}  // namespace
}  // namespace ingot::model
