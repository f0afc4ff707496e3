// ModelWeights: which tensors bind, and where the matrices the kernels
// read live (the huge-page arena, or the file map when memory is short).

#include "model/weights.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <vector>

#include "model/model.h"
#include "model/weight_arena.h"
#include "support/shared_data.h"

namespace ingot::model {
namespace {

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

}  // namespace
}  // namespace ingot::model
