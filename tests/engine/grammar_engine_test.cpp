// Constrained decoding through the engine, on a random-weight model with
// Qwen's real vocabulary: whatever the weights say, the reply matches the
// grammar and ends when the grammar completes.

#include <gtest/gtest.h>

#include <future>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "engine/engine.h"
#include "engine/grammar_generation_fixture.h"
#include "sampling/grammar/builtin.h"
#include "sampling/grammar/gbnf_parser.h"
#include "sampling/grammar/grammar_matcher.h"

namespace ingot::engine {
namespace {

using sampling::grammar::Grammar;
using sampling::grammar::GrammarMatcher;

constexpr std::string_view kPersonGbnf =
    R"(root ::= "{" ws "\"name\"" ws ":" ws str ws "," ws "\"age\"" ws ":" ws num tags? ws "}"
tags ::= ws "," ws "\"tags\"" ws ":" ws "[" ws (str (ws "," ws str){0,3})? ws "]"
str  ::= "\"" [a-zA-Z ]{0,12} "\""
num  ::= "-"? [0-9]{1,4}
ws   ::= [ \n]{0,2}
)";

constexpr std::string_view kToolCallGbnf =
    R"(root ::= "<tool_call>" ws "{" ws "\"name\"" ws ":" ws "\"" [a-z_]{1,10} "\"" ws "}" ws "</tool_call>"
ws   ::= [ \n]{0,2}
)";

class GrammarEngineTest : public GrammarGenerationFixture {
 protected:
  // Seeds 1..count of a request whose grammar arms at <tool_call>, with the
  // trigger's token favoured so that the model opens a call soon, after a
  // few free tokens.
  static std::vector<GenerationRequest> triggered_requests(
      const std::shared_ptr<const sampling::grammar::Grammar>& grammar, uint64_t count) {
    int32_t trigger_token = suite_.tokenizer->vocab().find("<tool_call>");
    EXPECT_GE(trigger_token, 0);
    std::vector<GenerationRequest> requests;
    for (uint64_t seed = 1; seed <= count; ++seed) {
      GenerationRequest r = request(grammar, seed, 120);
      r.sampling.grammar_triggers = {"<tool_call>"};
      r.sampling.logit_bias = {{trigger_token, 14.0f}};
      requests.push_back(std::move(r));
    }
    return requests;
  }
};

// The sanitizers make every step several times slower; the code each
// generation runs is the same for every seed.
#if defined(INGOT_UNDER_SANITIZERS)
constexpr uint64_t kSeededGenerations = 10;
constexpr uint64_t kOpenEndedSeeds = 3;
#else
constexpr uint64_t kSeededGenerations = 50;
constexpr uint64_t kOpenEndedSeeds = 8;
#endif

TEST_F(GrammarEngineTest, FiftySeededGenerationsMatchAndEndWithTheGrammar) {
  auto grammar = compile(kPersonGbnf);
  std::vector<GenerationRequest> requests;
  for (uint64_t seed = 1; seed <= kSeededGenerations; ++seed) {
    requests.push_back(request(grammar, seed, 400));
  }
  auto replies = run(requests);
  ASSERT_EQ(replies.size(), kSeededGenerations);
  std::set<std::string> distinct;
  for (const CollectedReply& reply : replies) {
    ASSERT_FALSE(reply.error) << reply.error->describe();
    ASSERT_TRUE(reply.finish);
    EXPECT_EQ(reply.finish->reason, FinishReason::kStop) << reply.content;
    GrammarMatcher matcher(grammar);
    EXPECT_TRUE(matcher.accept_bytes(reply.content) && matcher.must_end()) << reply.content;
    distinct.insert(reply.content);
  }
  // Temperature 1 over random weights: the grammar, not the model, shapes these.
  EXPECT_GT(distinct.size(), kSeededGenerations * 4 / 5);
}

TEST_F(GrammarEngineTest, PreparedEngineBuildsItsMaskerAtStartAndUsesIt) {
  EXPECT_FALSE(engine_->grammar_prepared()) << "without prepare_grammar it waits for a grammar";
  EngineOptions options;
  options.parallel = 2;
  options.threads = 1;
  options.context_size = 512;
  options.prepare_grammar = true;
  auto prepared = Engine::start(*suite_.model, *suite_.tokenizer, options);
  ASSERT_TRUE(prepared.ok()) << prepared.error().describe();
  EXPECT_TRUE((*prepared)->grammar_prepared());
  engine_ = std::move(prepared).value();
  auto grammar = compile(kPersonGbnf);
  for (const CollectedReply& reply : run({request(grammar, 7, 400), request(grammar, 8, 400)})) {
    ASSERT_FALSE(reply.error) << reply.error->describe();
    GrammarMatcher matcher(grammar);
    EXPECT_TRUE(matcher.accept_bytes(reply.content) && matcher.must_end()) << reply.content;
  }
}

TEST_F(GrammarEngineTest, OpenEndedJsonIsAlwaysAValidPrefixAndCompleteWhenStopped) {
  auto grammar = compile(sampling::grammar::kJsonObjectGbnf);
  std::vector<GenerationRequest> requests;
  for (uint64_t seed = 100; seed < 100 + kOpenEndedSeeds; ++seed) {
    requests.push_back(request(grammar, seed, 48));
  }
  for (const CollectedReply& reply : run(requests)) {
    ASSERT_FALSE(reply.error) << reply.error->describe();
    ASSERT_TRUE(reply.finish);
    GrammarMatcher matcher(grammar);
    ASSERT_TRUE(matcher.accept_bytes(reply.content)) << reply.content;
    if (reply.finish->reason == FinishReason::kStop) {
      EXPECT_TRUE(matcher.can_end()) << reply.content;
    }
    EXPECT_EQ(reply.content.front(), '{');
  }
}

TEST_F(GrammarEngineTest, TriggerLeavesTheTextBeforeItFree) {
  auto grammar = compile(kToolCallGbnf);
  std::vector<GenerationRequest> requests = triggered_requests(grammar, 12);
  int free_text_before = 0;
  for (const CollectedReply& reply : run(requests)) {
    ASSERT_FALSE(reply.error) << reply.error->describe();
    size_t at = reply.content.find("<tool_call>");
    if (at == std::string::npos) {
      EXPECT_EQ(reply.finish->reason, FinishReason::kLength);  // never triggered: free all along
      continue;
    }
    if (at > 0) ++free_text_before;
    GrammarMatcher matcher(grammar);
    EXPECT_TRUE(matcher.accept_bytes(reply.content.substr(at)) && matcher.must_end())
        << reply.content;
    EXPECT_EQ(reply.finish->reason, FinishReason::kStop);
  }
  EXPECT_GT(free_text_before, 0) << "no reply had free text before its trigger";
}

// A trigger the model writes while it reasons is not a call: the grammar
// arms only once the reasoning block has closed (here, at its budget).
TEST_F(GrammarEngineTest, TriggerInsideTheReasoningDoesNotArm) {
  auto grammar = compile(kToolCallGbnf);
  std::vector<GenerationRequest> requests = triggered_requests(grammar, 8);
  for (GenerationRequest& r : requests) {
    r.reasoning = ReasoningTags{"<think>", "</think>"};
    r.prompt_opens_reasoning = true;
    r.reasoning_budget = 6;
  }
  int triggers_in_reasoning = 0;
  for (const CollectedReply& reply : run(requests)) {
    ASSERT_FALSE(reply.error) << reply.error->describe();
    if (reply.reasoning.find("<tool_call>") != std::string::npos) ++triggers_in_reasoning;
    size_t at = reply.content.find("<tool_call>");
    if (at == std::string::npos) continue;
    GrammarMatcher matcher(grammar);
    EXPECT_TRUE(matcher.accept_bytes(reply.content.substr(at))) << reply.content;
  }
  EXPECT_GT(triggers_in_reasoning, 0) << "no reply wrote the trigger while reasoning";
}

}  // namespace
}  // namespace ingot::engine
