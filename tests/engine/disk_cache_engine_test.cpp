// The prompt cache on disk through the engine: blocks a first engine
// computed come back in a second one started on the same directory, and
// give the logits the computed blocks gave.

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "engine/engine.h"
#include "engine/suite_model.h"
#include "model/kv_cache.h"

namespace ingot::engine {
namespace {
namespace fs = std::filesystem;

constexpr int64_t kBlock = model::KvCache::kDefaultBlockSize;

class DiskCacheEngineTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { suite_.load("models/stories260K.gguf"); }
  static void TearDownTestSuite() { suite_.reset(); }

  void SetUp() override {
    INGOT_REQUIRE_SHARED();
    dir_ = fs::temp_directory_path() /
           ("ingot-disk-engine-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    // Two whole blocks of a first prompt, then a different ending: the
    // second request shares exactly those blocks with the first.
    first_ = no_end(
        "Once upon a time, there was a little girl named Lily. She liked to play in the garden "
        "with her big red ball. One day, her mom asked her to come inside and help her bake a "
        "cake for her brother. Lily was happy, because she loved cake more than anything, and",
        8);
    ASSERT_GT(first_.prompt.size(), size_t(2 * kBlock));
    second_ = first_;
    second_.max_tokens = 12;
    second_.prompt.resize(size_t(2 * kBlock));
    for (int32_t id : suite_.tokenizer->encode(" find her cat under the bed.", false, false)) {
      second_.prompt.push_back(id);
    }
    ASSERT_NE(second_.prompt[size_t(2 * kBlock)], first_.prompt[size_t(2 * kBlock)]);
  }
  void TearDown() override {
    std::error_code ignored;
    fs::remove_all(dir_, ignored);
  }

  std::unique_ptr<Engine> start(int64_t min_tokens = kBlock) {
    EngineOptions options;
    options.parallel = 1;
    options.threads = 1;
    options.prompt_cache_dir = dir_.string();
    options.prompt_cache_min_tokens = min_tokens;
    auto engine = Engine::start(*suite_.model, *suite_.tokenizer, options);
    EXPECT_TRUE(engine.ok());
    return std::move(engine).value();
  }

  static GenerationRequest no_end(const std::string& text, int32_t max_tokens) {
    GenerationRequest request;
    request.prompt = suite_.tokenizer->encode(text, /*add_special=*/true, /*parse_special=*/true);
    request.sampling.temperature = 0.0f;
    request.max_tokens = max_tokens;
    for (int32_t id : suite_.tokenizer->vocab().end_of_generation()) {
      request.sampling.logit_bias.emplace_back(id, -std::numeric_limits<float>::infinity());
    }
    return request;
  }

  // The first request, then the second from the blocks it left in memory.
  CollectedReply first_then_second_in_memory() {
    auto engine = start();
    collect_reply(*engine->submit(first_));
    CollectedReply warm = collect_reply(*engine->submit(second_));
    engine->flush_disk_cache();
    EXPECT_GE(engine->stats().disk.blocks_written, 2);
    return warm;
  }

  static std::vector<float> logprobs(const CollectedReply& reply) {
    std::vector<float> out;
    for (const auto& token : reply.tokens) out.push_back(token.logprob);
    return out;
  }

  static inline SuiteModel suite_;
  fs::path dir_;
  GenerationRequest first_;
  GenerationRequest second_;
};

TEST_F(DiskCacheEngineTest, ARestartedEngineTakesTheSavedBlocksAndGivesTheSameLogits) {
  const CollectedReply warm = first_then_second_in_memory();
  auto engine = start();
  const CollectedReply restored = collect_reply(*engine->submit(second_));
  const EngineStats stats = engine->stats();

  ASSERT_TRUE(warm.finish.has_value() && restored.finish.has_value());
  EXPECT_EQ(warm.finish->usage.cached_tokens, 2 * kBlock);
  EXPECT_EQ(restored.finish->usage.cached_tokens, 2 * kBlock);
  EXPECT_EQ(stats.disk.blocks_read, 2);
  EXPECT_EQ(token_ids(restored), token_ids(warm));
  EXPECT_EQ(logprobs(restored), logprobs(warm));  // exactly: the same keys and values
}

TEST_F(DiskCacheEngineTest, ACorruptBlockIsDeletedAndItsPrefixComputedAgain) {
  const CollectedReply warm = first_then_second_in_memory();
  for (const auto& entry : fs::recursive_directory_iterator(dir_)) {
    if (entry.path().extension() != ".kv") continue;
    std::fstream file(entry.path(), std::ios::in | std::ios::out | std::ios::binary);
    file.seekp(-1, std::ios::end);
    file.put('\x7F');
  }
  auto engine = start();
  const CollectedReply recomputed = collect_reply(*engine->submit(second_));
  const EngineStats stats = engine->stats();

  ASSERT_TRUE(recomputed.finish.has_value());
  EXPECT_EQ(recomputed.finish->usage.cached_tokens, 0);
  EXPECT_EQ(stats.disk.blocks_read, 0);
  EXPECT_EQ(stats.disk.files_rejected, 1);  // the first block; nothing after it is looked at
  EXPECT_EQ(token_ids(recomputed), token_ids(warm));
}

TEST_F(DiskCacheEngineTest, APrefixShorterThanTheMinimumIsNotWritten) {
  const int64_t min_tokens = 4 * kBlock;
  ASSERT_LT(int64_t(second_.prompt.size()) + second_.max_tokens, min_tokens);
  auto engine = start(min_tokens);
  collect_reply(*engine->submit(second_));
  engine->flush_disk_cache();
  EXPECT_EQ(engine->stats().disk.blocks_written, 0);
}

}  // namespace
}  // namespace ingot::engine
