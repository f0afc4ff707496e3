// Self-speculative decoding (--mtp) must never change a reply: every token
// is still drawn by the slot's own sampler from the trunk's logits, drafts
// only decide how many are drawn per step. The model is tiny-qwen35 with an
// echo prediction block (ingot-synth --nextn echo: it drafts the token it
// is given), so that the trunk's repetitions accept drafts and its changes
// of token refuse them: both paths run.

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "engine/engine.h"
#include "engine/suite_model.h"
#include "sampling/grammar/builtin.h"
#include "sampling/grammar/gbnf_parser.h"
#include "support/shared_data.h"
#include "support/synthetic_model.h"

namespace ingot::engine {
namespace {

class SpeculativeEngineTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    if (::ingot::testing::shared_dir().empty()) return;
    suite_.load_file(::ingot::testing::synthetic_model("tiny-qwen35", "f16", "echo"));
  }
  static void TearDownTestSuite() { suite_.reset(); }

  void SetUp() override { INGOT_REQUIRE_SHARED(); }

  static GenerationRequest request(const std::string& text, int32_t max_tokens,
                                   float temperature = 0.0f) {
    GenerationRequest request;
    request.prompt = suite_.tokenizer->encode(text, /*add_special=*/true, /*parse_special=*/true);
    request.sampling.temperature = temperature;
    request.sampling.seed = 42;
    request.max_tokens = max_tokens;
    return request;
  }

  static std::unique_ptr<Engine> start(int32_t parallel, int32_t drafts) {
    EngineOptions options;
    options.parallel = parallel;
    options.threads = 2;
    options.draft_tokens = drafts;
    auto engine = Engine::start(*suite_.model, *suite_.tokenizer, options);
    EXPECT_TRUE(engine.ok()) << engine.error().describe();
    return std::move(engine).value();
  }

  // Each request's token ids, all submitted at once.
  static std::vector<std::vector<int32_t>> replies(Engine& engine,
                                                   const std::vector<GenerationRequest>& requests) {
    std::vector<RequestHandle> handles;
    for (const GenerationRequest& r : requests) handles.push_back(*engine.submit(r));
    std::vector<std::vector<int32_t>> out;
    for (RequestHandle& h : handles) out.push_back(token_ids(collect_reply(std::move(h))));
    return out;
  }

  // Each request alone on an engine without drafts: the replies to match.
  static std::vector<std::vector<int32_t>> solo_replies(
      const std::vector<GenerationRequest>& requests) {
    auto engine = start(1, 0);
    std::vector<std::vector<int32_t>> out;
    for (const GenerationRequest& r : requests) out.push_back(replies(*engine, {r})[0]);
    return out;
  }

  static std::vector<GenerationRequest> prompts(int32_t max_tokens, float temperature = 0.0f) {
    std::vector<GenerationRequest> out;
    for (const char* text : {"Hello, world!", "The quick brown fox", "Once upon a time",
                             "1234567890", "Lily wanted to", "The sun was shining"}) {
      out.push_back(request(text, max_tokens, temperature));
    }
    return out;
  }

  static inline SuiteModel suite_;
};

TEST_F(SpeculativeEngineTest, GreedyRepliesWithDraftsEqualThoseWithout) {
  const std::vector<GenerationRequest> requests = prompts(24);
  const std::vector<std::vector<int32_t>> plain = solo_replies(requests);
  auto engine = start(1, 3);
  for (size_t i = 0; i < requests.size(); ++i) {
    EXPECT_EQ(replies(*engine, {requests[i]})[0], plain[i]) << i;
  }
  const EngineStats stats = engine->stats();
  EXPECT_GT(stats.accepted_drafts, 0) << "no draft was accepted: the test proves less";
  EXPECT_LT(stats.accepted_drafts, stats.drafted_tokens) << "no draft was refused";
}

TEST_F(SpeculativeEngineTest, SlotsDecodingTogetherWithDraftsMatchTheirSoloRuns) {
  const std::vector<GenerationRequest> requests = prompts(16);
  const std::vector<std::vector<int32_t>> plain = solo_replies(requests);
  auto engine = start(4, 2);
  EXPECT_EQ(replies(*engine, requests), plain);
  EXPECT_GT(engine->stats().accepted_drafts, 0);
}

TEST_F(SpeculativeEngineTest, SampledRepliesDrawTheSameTokensFromTheSameSeed) {
  const std::vector<GenerationRequest> requests = prompts(16, 0.7f);
  std::vector<std::vector<int32_t>> plain;
  {
    auto engine = start(2, 0);
    plain = replies(*engine, requests);
  }
  auto engine = start(2, 3);
  EXPECT_EQ(replies(*engine, requests), plain);
}

TEST_F(SpeculativeEngineTest, AGrammarHoldsOverDraftedTokens) {
  GenerationRequest json = request("Reply in JSON:", 40);
  auto grammar = sampling::grammar::parse_gbnf(sampling::grammar::kJsonObjectGbnf);
  ASSERT_TRUE(grammar.ok()) << grammar.error().describe();
  json.sampling.grammar = *grammar;
  const std::vector<int32_t> plain = solo_replies({json})[0];
  auto engine = start(1, 3);
  EXPECT_EQ(replies(*engine, {json})[0], plain);
}

TEST_F(SpeculativeEngineTest, ASecondTurnResumesItsCacheAndDraftsAsAColdRun) {
  auto engine = start(1, 3);
  GenerationRequest first = request("Once upon a time", 12);
  std::vector<int32_t> one = replies(*engine, {first})[0];
  GenerationRequest second = first;
  second.prompt.insert(second.prompt.end(), one.begin(), one.end());
  for (int32_t id : suite_.tokenizer->encode(" Then the dog", false, false)) {
    second.prompt.push_back(id);
  }
  std::vector<int32_t> warm = replies(*engine, {second})[0];
  EXPECT_GT(engine->stats().prefix_tokens_reused, 0);
  engine->stop();
  auto cold = start(1, 0);
  EXPECT_EQ(replies(*cold, {second})[0], warm);
}

// The mixture's prediction block (random weights: few drafts stand) runs
// its routed experts for the drafts; replies are those without it, for
// several sequences drafting in the same steps.
TEST(SpeculativeEngine, MixtureOfExpertsRepliesWithDraftsEqualThoseWithout) {
  INGOT_REQUIRE_SHARED();
  SuiteModel suite;
  suite.load_file(::ingot::testing::synthetic_model("tiny-qwen35moe", "f16"));
  auto replies_with = [&](int32_t drafts) {
    EngineOptions options;
    options.parallel = 3;
    options.threads = 2;
    options.draft_tokens = drafts;
    auto engine = Engine::start(*suite.model, *suite.tokenizer, options);
    EXPECT_TRUE(engine.ok()) << engine.error().describe();
    std::vector<RequestHandle> handles;
    for (const char* text : {"Once upon a time", "The little dog", "Lily wanted to"}) {
      GenerationRequest request;
      request.prompt = suite.tokenizer->encode(text, true, true);
      request.sampling.temperature = 0.0f;
      request.max_tokens = 24;
      handles.push_back(*(*engine)->submit(std::move(request)));
    }
    std::vector<std::vector<int32_t>> out;
    for (RequestHandle& h : handles) out.push_back(token_ids(collect_reply(std::move(h))));
    const EngineStats stats = (*engine)->stats();
    if (drafts > 0) {
      EXPECT_GT(stats.drafted_tokens, 0);
    }
    return out;
  };
  const std::vector<std::vector<int32_t>> plain = replies_with(0);
  EXPECT_EQ(replies_with(3), plain);
  for (const auto& reply : plain) EXPECT_EQ(reply.size(), 24u);
  suite.reset();
}

TEST(SpeculativeEngine, AModelWithoutAPredictionBlockRefusesMtp) {
  INGOT_REQUIRE_SHARED();
  SuiteModel suite;
  suite.load_file(::ingot::testing::synthetic_model("tiny", "f16"));
  EngineOptions options;
  options.draft_tokens = 3;
  auto engine = Engine::start(*suite.model, *suite.tokenizer, options);
  ASSERT_FALSE(engine.ok());
  EXPECT_EQ(engine.error().kind(), ErrorKind::kUnsupported);
  EXPECT_NE(engine.error().message().find("multi-token"), std::string::npos);
  suite.reset();
}

}  // namespace
}  // namespace ingot::engine
