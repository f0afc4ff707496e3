// The engine on a sliding-window model (tiny-gpt-oss, window 8) whose
// sliding layers keep only their windows: concurrent requests, long
// replies that send the slots round, and a second turn that resumes its
// first, all give what the same engine keeping every position (--swa-full)
// gives.

#include <gtest/gtest.h>

#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "engine/engine.h"
#include "engine/suite_model.h"
#include "support/shared_data.h"
#include "support/synthetic_model.h"

namespace ingot::engine {
namespace {

class WindowEngineTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    if (::ingot::testing::shared_dir().empty()) return;
    suite_.load_file(::ingot::testing::synthetic_model("tiny-gpt-oss", "f16"));
  }
  static void TearDownTestSuite() { suite_.reset(); }

  void SetUp() override { INGOT_REQUIRE_SHARED(); }

  static GenerationRequest greedy(const std::string& text, int32_t max_tokens) {
    GenerationRequest request;
    request.prompt = suite_.tokenizer->encode(text, /*add_special=*/true, /*parse_special=*/true);
    request.sampling.temperature = 0.0f;
    request.max_tokens = max_tokens;
    for (int32_t id : suite_.tokenizer->vocab().end_of_generation()) {  // long replies
      request.sampling.logit_bias.emplace_back(id, -std::numeric_limits<float>::infinity());
    }
    return request;
  }

  static std::unique_ptr<Engine> start(bool swa_full) {
    EngineOptions options;
    options.parallel = 3;
    options.threads = 2;
    options.context_size = 512;
    options.swa_full = swa_full;
    auto engine = Engine::start(*suite_.model, *suite_.tokenizer, options);
    EXPECT_TRUE(engine.ok());
    return std::move(engine).value();
  }

  // The prompts' replies, submitted together, then a second turn on the
  // first conversation.
  static std::vector<std::vector<int32_t>> run(bool swa_full, int64_t* second_turn_cached) {
    const std::vector<std::string> prompts = {"Once upon a time", "The little dog ran",
                                              "Lily wanted to see the sea", "A big tree"};
    auto engine = start(swa_full);
    std::vector<RequestHandle> handles;
    for (const std::string& p : prompts) handles.push_back(*engine->submit(greedy(p, 300)));
    std::vector<std::vector<int32_t>> replies;
    for (RequestHandle& handle : handles) {
      replies.push_back(token_ids(collect_reply(std::move(handle))));
    }
    GenerationRequest second = greedy(prompts[0], 20);
    for (int32_t id : replies[0]) second.prompt.push_back(id);
    for (int32_t id : suite_.tokenizer->encode(" Then", false, false)) second.prompt.push_back(id);
    CollectedReply turn = collect_reply(*engine->submit(second));
    EXPECT_TRUE(turn.finish.has_value());
    if (turn.finish) *second_turn_cached = turn.finish->usage.cached_tokens;
    replies.push_back(token_ids(turn));
    engine->stop();
    return replies;
  }

  static inline SuiteModel suite_;
};

TEST_F(WindowEngineTest, TrimmedWindowsGiveWhatWholeOnesGive) {
  int64_t cached_full = 0, cached_trimmed = 0;
  const auto full = run(/*swa_full=*/true, &cached_full);
  const auto trimmed = run(/*swa_full=*/false, &cached_trimmed);
  ASSERT_EQ(full.size(), trimmed.size());
  for (size_t i = 0; i < full.size(); ++i) EXPECT_EQ(trimmed[i], full[i]) << i;
  // The second turn resumes where the first left its window.
  EXPECT_GT(cached_trimmed, 64);
  EXPECT_EQ(cached_trimmed, cached_full);
}

}  // namespace
}  // namespace ingot::engine
