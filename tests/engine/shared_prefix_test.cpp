// The prefix cache is the engine's, not a slot's: a request starts from the
// longest prefix any sequence computed (on another slot, or finished and
// gone), computes only the rest, and draws what a cold run draws.

#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "engine/engine.h"
#include "engine/suite_model.h"
#include "model/kv_cache.h"

namespace ingot::engine {
namespace {

// stories260K: a real trained model, small enough for many engines.
class SharedPrefixTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { suite_.load("models/stories260K.gguf"); }
  static void TearDownTestSuite() { suite_.reset(); }

  void SetUp() override { INGOT_REQUIRE_SHARED(); }

  static std::unique_ptr<Engine> start(int32_t parallel) {
    EngineOptions options;
    options.parallel = parallel;
    options.threads = 1;
    auto engine = Engine::start(*suite_.model, *suite_.tokenizer, options);
    EXPECT_TRUE(engine.ok());
    return std::move(engine).value();
  }

  // A greedy request that never ends before `max_tokens`.
  static GenerationRequest greedy(const std::string& text, int32_t max_tokens) {
    GenerationRequest request;
    request.prompt = suite_.tokenizer->encode(text, /*add_special=*/true, /*parse_special=*/true);
    request.sampling.temperature = 0.0f;
    for (int32_t id : suite_.tokenizer->vocab().end_of_generation()) {
      request.sampling.logit_bias.emplace_back(id, -std::numeric_limits<float>::infinity());
    }
    request.max_tokens = max_tokens;
    return request;
  }

  static CollectedReply run_cold(GenerationRequest request) {
    auto engine = start(1);
    return collect_reply(*engine->submit(std::move(request)));
  }

  static size_t common_prefix(const std::vector<int32_t>& a, const std::vector<int32_t>& b) {
    return size_t(std::mismatch(a.begin(), a.end(), b.begin(), b.end()).first - a.begin());
  }

  static inline SuiteModel suite_;
};

const std::string kSharedStory =
    "Once upon a time, there was a little girl named Lily. She loved to play outside in the "
    "park with her friends. One day, she saw a big red ball under a tree and ran to get it. "
    "Her mom said it was time to go home, but Lily wanted to";

TEST_F(SharedPrefixTest, ARequestOnAnotherSlotStartsFromTheFirstsBlocks) {
  GenerationRequest first = greedy(kSharedStory + " play with the dog.", 40);
  GenerationRequest second = greedy(kSharedStory + " find her cat.", 12);
  const size_t common = common_prefix(first.prompt, second.prompt);
  const int64_t block = model::KvCache::kDefaultBlockSize;
  // Reused in whole blocks only: a slot's own cache would reuse all of it.
  ASSERT_NE(common % size_t(block), 0u) << "the test wants a prefix that ends inside a block";
  ASSERT_GE(common, size_t(block));

  auto engine = start(2);
  RequestHandle one = *engine->submit(first);
  one.next();  // its prompt is in the cache: the second finds the first slot busy
  CollectedReply two = collect_reply(*engine->submit(second));
  CollectedReply rest = collect_reply(one);
  engine->stop();  // one engine at a time on a model
  CollectedReply cold = run_cold(second);

  ASSERT_TRUE(two.finish.has_value() && cold.finish.has_value());
  EXPECT_EQ(two.finish->usage.cached_tokens, int64_t(common) / block * block);
  EXPECT_EQ(cold.finish->usage.cached_tokens, 0);
  EXPECT_EQ(token_ids(two), token_ids(cold));
}

TEST_F(SharedPrefixTest, AFinishedRequestsBlocksServeALaterOneAfterItsSlotMovedOn) {
  GenerationRequest first = greedy(kSharedStory + " play with the dog.", 8);
  GenerationRequest other = greedy("The sun was shining and the birds were singing.", 8);
  GenerationRequest second = greedy(kSharedStory + " find her cat.", 12);
  const int64_t block = model::KvCache::kDefaultBlockSize;
  const size_t common = common_prefix(first.prompt, second.prompt);

  auto engine = start(1);
  collect_reply(*engine->submit(first));
  CollectedReply between = collect_reply(*engine->submit(other));
  CollectedReply warm = collect_reply(*engine->submit(second));
  EXPECT_GT(engine->stats().kv_blocks_cached, 0);
  engine->stop();
  CollectedReply cold = run_cold(second);

  ASSERT_TRUE(between.finish.has_value() && warm.finish.has_value() && cold.finish.has_value());
  EXPECT_LE(between.finish->usage.cached_tokens, 1);  // the BOS token, at most
  EXPECT_EQ(warm.finish->usage.cached_tokens, int64_t(common) / block * block);
  EXPECT_EQ(token_ids(warm), token_ids(cold));
}

}  // namespace
}  // namespace ingot::engine
