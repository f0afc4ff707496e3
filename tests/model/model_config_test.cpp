// ModelConfig from the shared models' metadata: each architecture's
// hyperparameters and switches.

#include "model/model_config.h"

#include <gtest/gtest.h>

#include "gguf/writer.h"
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

// A llama header naming `layers` blocks and nothing else a config needs
// beyond the token embedding's shape.
Result<ModelConfig> config_of_header(uint32_t layers) {
  gguf::GgufWriter writer;
  writer.set_string("general.architecture", "llama");
  writer.set_u32("llama.embedding_length", 8);
  writer.set_u32("llama.block_count", layers);
  writer.set_u32("llama.feed_forward_length", 16);
  writer.set_u32("llama.attention.head_count", 2);
  EXPECT_TRUE(writer
                  .add_tensor("token_embd.weight", {8, 4}, kernels::ElementType::kF32,
                              std::vector<uint8_t>(8 * 4 * sizeof(float)))
                  .ok());
  auto bytes = writer.to_bytes();
  EXPECT_TRUE(bytes.ok());
  auto file = gguf::GgufFile::parse(*bytes);
  EXPECT_TRUE(file.ok()) << file.error().describe();
  return ModelConfig::from_gguf(*file);
}

// Found by the gguf_reader fuzz target: per-layer tables were sized by a
// block_count of hundreds of millions before any tensor was looked at.
TEST(ModelConfig, RefusesAHeaderNamingMoreLayersThanAnyModelHas) {
  EXPECT_TRUE(config_of_header(512).ok());
  auto huge = config_of_header(700'000'000);
  ASSERT_FALSE(huge.ok());
  EXPECT_NE(huge.error().describe().find("block_count"), std::string::npos);
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
