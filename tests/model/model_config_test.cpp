// ModelConfig from the shared models' metadata: each architecture's
// hyperparameters and switches.

#include "model/model_config.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <vector>

#include "model/model.h"
#include "support/shared_data.h"

namespace ingot::model {
namespace {

ModelConfig config_of(const std::string& name) {
  auto file = gguf::GgufFile::open(ingot::testing::shared_path("models/" + name).string());
  EXPECT_TRUE(file.ok()) << file.error().describe();
  auto config = ModelConfig::from_gguf(*file);
  EXPECT_TRUE(config.ok()) << config.error().describe();
  return *config;
}

TEST(ModelConfig, ReadsStories260K) {
  INGOT_REQUIRE_SHARED();
  ModelConfig c = config_of("stories260K.gguf");
  EXPECT_EQ(c.traits.architecture, Architecture::kLlama);
  EXPECT_EQ(c.n_vocab, 512);
  EXPECT_EQ(c.n_embd, 64);
  EXPECT_EQ(c.n_layers, 5);
  EXPECT_EQ(c.n_heads, 8);
  EXPECT_EQ(c.n_kv_heads, 4);
  EXPECT_EQ(c.head_dim, 8);
  EXPECT_EQ(c.rope.n_rot, 8);
  EXPECT_FLOAT_EQ(c.rope.freq_base, 10000.0f);
}

TEST(ModelConfig, Qwen3HeadsAreIndependentOfTheHiddenSize) {
  INGOT_REQUIRE_SHARED();
  ModelConfig c = config_of("tiny-qwen3-f16.gguf");
  EXPECT_EQ(c.traits.architecture, Architecture::kQwen3);
  EXPECT_TRUE(c.traits.qk_norm);
  EXPECT_EQ(c.traits.rope_layout, kernels::RopeLayout::kHalves);
  EXPECT_EQ(c.n_embd, 32);
  EXPECT_EQ(c.q_dim(), 64);
  EXPECT_EQ(c.head_dim, 16);
  EXPECT_FLOAT_EQ(c.rope.freq_base, 1000000.0f);
}

TEST(ModelConfig, Qwen2HasQkvBias) {
  INGOT_REQUIRE_SHARED();
  ModelConfig c = config_of("tiny-qwen2-f16.gguf");
  EXPECT_TRUE(c.traits.qkv_bias);
  EXPECT_EQ(c.n_vocab, 151669);
}

TEST(ModelWeights, BindsTiedAndUntiedOutputs) {
  INGOT_REQUIRE_SHARED();
  auto model = Model::load(ingot::testing::shared_path("models/small-llama-q4_k_m.gguf").string());
  ASSERT_TRUE(model.ok()) << model.error().describe();
  EXPECT_FALSE((*model)->weights().tied_output);
  EXPECT_EQ((*model)->weights().output.type, kernels::ElementType::kQ6_K);
  EXPECT_EQ((*model)->weights().layers.size(), 2u);
}

// Decode streams every matrix once per step, so each one the kernels read
// (the interleaved copy when there is one, the blocks otherwise) lives in
// the model's huge-page arena, not in the file mapping.
TEST(ModelWeights, KernelsReadEveryMatrixFromTheArena) {
  INGOT_REQUIRE_SHARED();
  for (const char* file : {"models/small-llama-q4_k_m.gguf", "models/small-llama-f16.gguf",
                           "models/small-llama-q4_0.gguf", "models/stories260K.gguf"}) {
    auto model = Model::load(ingot::testing::shared_path(file).string());
    ASSERT_TRUE(model.ok()) << model.error().describe();
    const ModelWeights& weights = (*model)->weights();
    auto read_by_kernels = [](const kernels::WeightMatrix& w) {
      return w.interleaved != nullptr ? w.interleaved : w.data;
    };
    for (const LayerWeights& layer : weights.layers) {
      for (const kernels::WeightMatrix* w :
           {&layer.wq, &layer.wk, &layer.wv, &layer.wo, &layer.gate, &layer.up, &layer.down}) {
        EXPECT_TRUE(weights.arena.holds(read_by_kernels(*w))) << file;
      }
    }
    EXPECT_TRUE(weights.arena.holds(read_by_kernels(weights.output))) << file;
  }
}

TEST(ModelWeights, CopiesIntoTheArenaOnlyWhatMemoryAllows) {
  constexpr uint64_t kGiB = uint64_t{1} << 30;
  EXPECT_TRUE(arena_fits(6 * kGiB, 8 * kGiB));
  EXPECT_FALSE(arena_fits(6 * kGiB + 1, 8 * kGiB));
  EXPECT_FALSE(arena_fits(16 * kGiB, 8 * kGiB));
  EXPECT_TRUE(arena_fits(16 * kGiB, std::nullopt));
}

// Weights left in the file map (too large for memory, or asked for) give
// the same logits as their copies in the arena.
TEST(ModelWeights, MappedWeightsGiveTheSameLogitsAsTheArena) {
  INGOT_REQUIRE_SHARED();
  for (const char* file : {"models/small-llama-q4_0.gguf", "models/small-llama-q4_k_m.gguf"}) {
    const std::string path = ingot::testing::shared_path(file).string();
    auto copied = Model::load(path);
    ASSERT_TRUE(copied.ok()) << copied.error().describe();
    ::setenv("INGOT_KEEP_WEIGHTS_MAPPED", "1", 1);
    auto mapped = Model::load(path);
    ::unsetenv("INGOT_KEEP_WEIGHTS_MAPPED");
    ASSERT_TRUE(mapped.ok()) << mapped.error().describe();
    EXPECT_EQ((*mapped)->weights().arena.capacity(), 0u);
    EXPECT_GT((*copied)->weights().arena.capacity(), 0u);
    auto logits_of = [](Model& model) {
      ThreadPool pool(2);
      KvCache cache = model.make_cache(64);
      Batch batch;
      for (int32_t i = 0; i < 5; ++i) batch.add(10 + 7 * i, i, 0, i == 4);
      Result<Logits> logits = model.forward(batch, cache, pool);
      EXPECT_TRUE(logits.ok());
      return std::vector<float>(logits->row(0), logits->row(0) + logits->n_vocab);
    };
    const std::vector<float> expected = logits_of(**copied);
    const std::vector<float> got = logits_of(**mapped);
    ASSERT_EQ(got.size(), expected.size());
    // The interleaved and block-at-a-time kernels round and sum in
    // different orders: the golden tests' tolerance, 1.25% of the range.
    const auto [low, high] = std::minmax_element(expected.begin(), expected.end());
    const float tolerance = 0.0125f * (*high - *low);
    for (size_t i = 0; i < got.size(); ++i) {
      ASSERT_NEAR(got[i], expected[i], tolerance) << file << " logit " << i;
    }
  }
}

TEST(Model, RejectsOutOfVocabularyTokensAndLeavesTheCacheAsItWas) {
  INGOT_REQUIRE_SHARED();
  auto model = Model::load(ingot::testing::shared_path("models/stories260K.gguf").string());
  ASSERT_TRUE(model.ok());
  ThreadPool pool(1);
  KvCache cache = (*model)->make_cache(64);
  Batch batch;
  batch.add(1, 0, 0, false);
  batch.add(100000, 1, 0, true);
  Result<Logits> logits = (*model)->forward(batch, cache, pool);
  EXPECT_FALSE(logits.ok());
  EXPECT_EQ(cache.sequence_length(0), 0);
  EXPECT_EQ(cache.free_cells(), cache.capacity());
}

}  // namespace
}  // namespace ingot::model
