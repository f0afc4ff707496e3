// The engine on a hybrid model (tiny-qwen35: linear-attention layers with a
// recurrent state beside the KV cache): continuous batching keeps each
// sequence's state apart, a second turn resumes the state where the first
// left it, and a prompt that leaves the cached path starts over.

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "engine/engine.h"
#include "engine/suite_model.h"
#include "support/shared_data.h"
#include "support/synthetic_model.h"

namespace ingot::engine {
namespace {

class HybridEngineTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    if (::ingot::testing::shared_dir().empty()) return;
    suite_.load_file(::ingot::testing::synthetic_model("tiny-qwen35"));
  }
  static void TearDownTestSuite() { suite_.reset(); }

  void SetUp() override { INGOT_REQUIRE_SHARED(); }

  static GenerationRequest greedy(const std::string& text, int32_t max_tokens) {
    GenerationRequest request;
    request.prompt = suite_.tokenizer->encode(text, /*add_special=*/true, /*parse_special=*/true);
    request.sampling.temperature = 0.0f;
    request.max_tokens = max_tokens;
    return request;
  }

  static std::unique_ptr<Engine> start(int32_t parallel) {
    EngineOptions options;
    options.parallel = parallel;
    options.threads = 2;
    auto engine = Engine::start(*suite_.model, *suite_.tokenizer, options);
    EXPECT_TRUE(engine.ok());
    return std::move(engine).value();
  }

  static CollectedReply run_alone(GenerationRequest request) {
    auto engine = start(1);
    return collect_reply(*engine->submit(std::move(request)));
  }

  static inline SuiteModel suite_;
};

TEST_F(HybridEngineTest, EightRequestsOnFourSlotsMatchTheirSoloRuns) {
  const std::vector<std::string> prompts = {"Once upon a time", "The little dog",
                                            "Lily wanted to",   "One day, a bird",
                                            "Tom and Sue went", "The sun was shining on the hills",
                                            "Mom said that",    "A big tree"};
  std::vector<std::vector<int32_t>> solo;
  for (const std::string& p : prompts) solo.push_back(token_ids(run_alone(greedy(p, 10))));
  auto engine = start(4);
  std::vector<RequestHandle> handles;
  for (const std::string& p : prompts) handles.push_back(*engine->submit(greedy(p, 10)));
  for (size_t i = 0; i < prompts.size(); ++i) {
    EXPECT_EQ(token_ids(collect_reply(std::move(handles[i]))), solo[i]) << prompts[i];
  }
}

TEST_F(HybridEngineTest, SecondTurnResumesTheRecurrentStateAndMatchesAColdRun) {
  auto engine = start(2);
  GenerationRequest first = greedy("Once upon a time", 8);
  const std::vector<int32_t> turn_one = first.prompt;
  CollectedReply one = collect_reply(*engine->submit(first));

  GenerationRequest second = greedy("", 8);
  second.prompt = turn_one;
  for (int32_t id : token_ids(one)) second.prompt.push_back(id);
  for (int32_t id : suite_.tokenizer->encode(" Then the dog", false, false)) {
    second.prompt.push_back(id);
  }
  CollectedReply warm = collect_reply(*engine->submit(second));
  engine->stop();  // one engine at a time on a model
  CollectedReply cold = run_alone(second);
  ASSERT_TRUE(warm.finish.has_value() && cold.finish.has_value());
  EXPECT_EQ(warm.finish->usage.cached_tokens,
            static_cast<int64_t>(turn_one.size() + one.tokens.size() - 1));
  EXPECT_EQ(token_ids(warm), token_ids(cold));
}

TEST_F(HybridEngineTest, ATurnThatRewritesTheReplyResumesFromThePromptsEnd) {
  auto engine = start(1);
  GenerationRequest first = greedy("Once upon a time there was a cat", 6);
  const std::vector<int32_t> turn_one = first.prompt;
  collect_reply(*engine->submit(first));
  // The first prompt, then other text than the reply (as a template that
  // re-renders the reply gives): the state kept at the prompt's end serves.
  GenerationRequest second = greedy("", 6);
  second.prompt = turn_one;
  for (int32_t id : suite_.tokenizer->encode(" who sat on a mat", false, false)) {
    second.prompt.push_back(id);
  }
  CollectedReply warm = collect_reply(*engine->submit(second));
  engine->stop();
  CollectedReply cold = run_alone(second);
  ASSERT_TRUE(warm.finish.has_value());
  EXPECT_EQ(warm.finish->usage.cached_tokens, static_cast<int64_t>(turn_one.size()));
  EXPECT_EQ(token_ids(warm), token_ids(cold));
}

TEST_F(HybridEngineTest, ALongPromptKeepsItsStateAtEachBoundary) {
  std::string text;
  for (int i = 0; i < 80; ++i) text += "The clock ticked again and again. ";
  auto engine = start(1);
  GenerationRequest first = greedy(text, 2);
  ASSERT_GT(first.prompt.size(), 300u);
  collect_reply(*engine->submit(first));
  // The same 300 tokens, then others: the state at 256 is the longest kept.
  GenerationRequest second = greedy("", 4);
  second.prompt.assign(first.prompt.begin(), first.prompt.begin() + 300);
  for (int32_t id : suite_.tokenizer->encode(" Then it stopped.", false, false)) {
    second.prompt.push_back(id);
  }
  CollectedReply warm = collect_reply(*engine->submit(second));
  engine->stop();
  CollectedReply cold = run_alone(second);
  ASSERT_TRUE(warm.finish.has_value());
  EXPECT_EQ(warm.finish->usage.cached_tokens, 256);
  EXPECT_EQ(token_ids(warm), token_ids(cold));
}

TEST_F(HybridEngineTest, APromptLeavingTheCachedPathStartsOver) {
  auto engine = start(1);
  GenerationRequest first = greedy("Once upon a time there was a cat", 4);
  collect_reply(*engine->submit(first));
  // Shares "Once upon a time" only: no state was kept there.
  GenerationRequest second = greedy("Once upon a time the dog slept", 6);
  CollectedReply warm = collect_reply(*engine->submit(second));
  engine->stop();
  CollectedReply cold = run_alone(second);
  ASSERT_TRUE(warm.finish.has_value());
  EXPECT_EQ(warm.finish->usage.cached_tokens, 0);
  EXPECT_EQ(token_ids(warm), token_ids(cold));
}

}  // namespace
}  // namespace ingot::engine
