#include "engine/engine.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "engine/suite_model.h"
#include "model/kv_cache.h"
#include "support/shared_data.h"

namespace ingot::engine {
namespace {

// stories260K: a real trained model, small enough that a reply takes
// milliseconds, so every scheduling path runs on real logits.
class EngineTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { suite_.load("models/stories260K.gguf"); }
  static void TearDownTestSuite() { suite_.reset(); }

  void SetUp() override { INGOT_REQUIRE_SHARED(); }

  std::unique_ptr<Engine> start(EngineOptions options) {
    options.threads = options.threads > 0 ? options.threads : 1;
    auto engine = Engine::start(*suite_.model, *suite_.tokenizer, options);
    EXPECT_TRUE(engine.ok());
    return std::move(engine).value();
  }

  static GenerationRequest greedy(const std::string& text, int32_t max_tokens) {
    GenerationRequest request;
    request.prompt = suite_.tokenizer->encode(text, /*add_special=*/true, /*parse_special=*/true);
    request.sampling.temperature = 0.0f;
    request.max_tokens = max_tokens;
    return request;
  }

  static CollectedReply run_alone(GenerationRequest request) {
    EngineOptions options;
    options.parallel = 1;
    options.threads = 1;
    auto engine = Engine::start(*suite_.model, *suite_.tokenizer, options);
    auto handle = (*engine)->submit(std::move(request));
    return collect_reply(*handle);
  }

  // greedy(), never ending before `max_tokens`.
  static GenerationRequest no_end(const std::string& text, int32_t max_tokens) {
    GenerationRequest request = greedy(text, max_tokens);
    for (int32_t id : suite_.tokenizer->vocab().end_of_generation()) {
      request.sampling.logit_bias.emplace_back(id, -std::numeric_limits<float>::infinity());
    }
    return request;
  }

  static size_t common_prefix(const std::vector<int32_t>& a, const std::vector<int32_t>& b) {
    return size_t(std::mismatch(a.begin(), a.end(), b.begin(), b.end()).first - a.begin());
  }

  static inline SuiteModel suite_;
};

const std::vector<std::string> kPrompts = {
    "Once upon a time", "The little dog",      "Lily wanted to", "One day, a bird",
    "Tom and Sue went", "The sun was shining", "Mom said that",  "There was a big tree",
};

TEST_F(EngineTest, GreedyContinuationMatchesTheGoldenText) {
  CollectedReply reply = run_alone(greedy("Once upon a time", 16));
  ASSERT_TRUE(reply.finish.has_value());
  EXPECT_EQ(reply.finish->reason, FinishReason::kLength);
  EXPECT_EQ(reply.finish->usage.completion_tokens, 16);
  EXPECT_EQ(reply.content.rfind(", there was a little girl named Lily", 0), 0u) << reply.content;
}

TEST_F(EngineTest, EightRequestsOnFourSlotsMatchTheirSoloRuns) {
  std::vector<std::vector<int32_t>> solo;
  for (const auto& prompt : kPrompts) solo.push_back(token_ids(run_alone(greedy(prompt, 24))));

  EngineOptions options;
  options.parallel = 4;
  auto engine = start(options);
  std::vector<RequestHandle> handles;
  for (const auto& prompt : kPrompts) {
    auto handle = engine->submit(greedy(prompt, 24));
    ASSERT_TRUE(handle.ok()) << handle.error().describe();
    handles.push_back(*handle);
  }
  for (size_t i = 0; i < handles.size(); ++i) {
    CollectedReply reply = collect_reply(handles[i]);
    ASSERT_TRUE(reply.finish.has_value()) << i;
    EXPECT_EQ(token_ids(reply), solo[i]) << "prompt " << i << ": " << kPrompts[i];
  }
}

TEST_F(EngineTest, SmallBatchesPrefillInChunksWithTheSameResult) {
  // Solo runs first: a model serves one engine at a time (its forward
  // pass keeps scratch buffers).
  std::vector<int32_t> solo_a = token_ids(run_alone(greedy(kPrompts[0], 12)));
  std::vector<int32_t> solo_b = token_ids(run_alone(greedy(kPrompts[7], 12)));
  EngineOptions options;
  options.parallel = 2;
  options.batch_size = 3;  // prompts take several steps, interleaved with decoding
  auto engine = start(options);
  auto a = engine->submit(greedy(kPrompts[0], 12));
  auto b = engine->submit(greedy(kPrompts[7], 12));
  EXPECT_EQ(token_ids(collect_reply(*a)), solo_a);
  EXPECT_EQ(token_ids(collect_reply(*b)), solo_b);
}

TEST_F(EngineTest, CancelledWhileQueuedMidDecodeAndNextRequestProceeds) {
  EngineOptions options;
  options.parallel = 1;
  auto engine = start(options);
  GenerationRequest endless = greedy("Once upon a time", 400);
  endless.sampling.logit_bias = {{2, -1000.0f}};  // never end on EOS
  auto running = engine->submit(endless);
  auto queued = engine->submit(greedy("The little dog", 8));
  ASSERT_TRUE(running.ok() && queued.ok());

  queued->cancel();
  CollectedReply queued_reply = collect_reply(*queued);
  ASSERT_TRUE(queued_reply.finish.has_value());
  EXPECT_EQ(queued_reply.finish->reason, FinishReason::kCancelled);

  Event first = running->next();  // decoding has begun
  ASSERT_TRUE(std::holds_alternative<TextEvent>(first));
  running->cancel();
  CollectedReply running_reply = collect_reply(*running);
  ASSERT_TRUE(running_reply.finish.has_value());
  EXPECT_EQ(running_reply.finish->reason, FinishReason::kCancelled);
  EXPECT_LT(running_reply.finish->usage.completion_tokens, 400);

  auto next = engine->submit(greedy("Lily wanted to", 8));
  CollectedReply next_reply = collect_reply(*next);
  ASSERT_TRUE(next_reply.finish.has_value());
  EXPECT_EQ(next_reply.finish->reason, FinishReason::kLength);
}

TEST_F(EngineTest, CancelledDuringPrefillFreesTheSlot) {
  EngineOptions options;
  options.parallel = 1;
  options.batch_size = 2;
  auto engine = start(options);
  std::string long_prompt;
  for (int i = 0; i < 20; ++i) long_prompt += "The little dog ran to the park. ";
  auto handle = engine->submit(greedy(long_prompt, 8));
  handle->cancel();
  CollectedReply reply = collect_reply(*handle);
  ASSERT_TRUE(reply.finish.has_value());
  EXPECT_EQ(reply.finish->reason, FinishReason::kCancelled);
  EXPECT_EQ(reply.finish->usage.completion_tokens, 0);
  auto next = engine->submit(greedy("Mom said that", 4));
  EXPECT_EQ(collect_reply(*next).finish->reason, FinishReason::kLength);
}

// Whatever a cancelled prefill leaves (published blocks, a partial one),
// the same prompt after it gives the tokens of a cold run. The test waits
// until the prefill has put positions in the cache, then cancels.
TEST_F(EngineTest, APrefillCancelledMidwayLeavesACacheTheSamePromptCanTrust) {
  std::string text;
  for (int i = 0; i < 16; ++i) text += "The little dog ran to the park and played with a ball. ";
  const GenerationRequest request = no_end(text, 8);
  EngineOptions options;
  options.parallel = 2;
  options.batch_size = 16;
  auto engine = start(options);
  RequestHandle cancelled = *engine->submit(request);
  while (engine->stats().kv_cells_used == 0) std::this_thread::yield();
  cancelled.cancel();
  // On a loaded machine the engine may finish it before the cancel lands.
  const FinishReason reason = collect_reply(cancelled).finish->reason;
  EXPECT_TRUE(reason == FinishReason::kCancelled || reason == FinishReason::kLength);
  CollectedReply warm = collect_reply(*engine->submit(request));
  engine->stop();
  CollectedReply cold = run_alone(request);

  ASSERT_TRUE(warm.finish.has_value() && cold.finish.has_value());
  EXPECT_LT(warm.finish->usage.cached_tokens, int64_t(request.prompt.size()));
  EXPECT_EQ(token_ids(warm), token_ids(cold));
}

// The gate: the test reads nothing from `held` until its batch neighbour
// has finished a reply longer than the channel, so `held` must have filled
// its channel and waited (it was admitted no later than the neighbour).
TEST_F(EngineTest, AConsumerThatStopsReadingPausesItsRequestAndItResumesExactly) {
  const int32_t kHeldTokens = 300, kNeighbourTokens = 200;
  static_assert(kNeighbourTokens > 2 * static_cast<int32_t>(kEventChannelCapacity));
  std::vector<int32_t> held_alone = token_ids(run_alone(no_end(kPrompts[0], kHeldTokens)));
  std::vector<int32_t> neighbour_alone =
      token_ids(run_alone(no_end(kPrompts[1], kNeighbourTokens)));

  EngineOptions options;
  options.parallel = 2;
  auto engine = start(options);
  auto held = engine->submit(no_end(kPrompts[0], kHeldTokens));
  auto neighbour = engine->submit(no_end(kPrompts[1], kNeighbourTokens));
  ASSERT_TRUE(held.ok() && neighbour.ok());

  CollectedReply neighbour_reply = collect_reply(*neighbour);
  ASSERT_TRUE(neighbour_reply.finish.has_value());
  EXPECT_EQ(token_ids(neighbour_reply), neighbour_alone);
  EXPECT_EQ(engine->stats().paused, 1);

  CollectedReply held_reply = collect_reply(*held);
  ASSERT_TRUE(held_reply.finish.has_value());
  EXPECT_EQ(held_reply.finish->reason, FinishReason::kLength);
  EXPECT_EQ(token_ids(held_reply), held_alone);
}

// A paused request's slot is not lost: cancelling it frees the slot for
// the next request.
TEST_F(EngineTest, APausedRequestCanBeCancelledAndItsSlotServesTheNext) {
  EngineOptions options;
  options.parallel = 1;
  auto engine = start(options);
  auto held = engine->submit(no_end(kPrompts[0], 300));
  ASSERT_TRUE(held.ok());
  while (engine->stats().paused == 0) std::this_thread::yield();  // read nothing till then
  auto next = engine->submit(greedy(kPrompts[2], 4));             // queued behind it
  ASSERT_TRUE(next.ok());
  held->cancel();
  CollectedReply held_reply = collect_reply(*held);
  ASSERT_TRUE(held_reply.finish.has_value());
  EXPECT_EQ(held_reply.finish->reason, FinishReason::kCancelled);
  EXPECT_EQ(collect_reply(*next).finish->reason, FinishReason::kLength);
}

TEST_F(EngineTest, StopStringSplitAcrossTokensIsFoundAndNeverEmitted) {
  GenerationRequest request = greedy("Once upon a time", 40);
  request.stop = {"little gi"};
  CollectedReply reply = run_alone(request);
  ASSERT_TRUE(reply.finish.has_value());
  EXPECT_EQ(reply.finish->reason, FinishReason::kStop);
  EXPECT_EQ(reply.content, ", there was a ");
}

TEST_F(EngineTest, SecondTurnReusesTheCacheAndMatchesAColdRun) {
  EngineOptions options;
  options.parallel = 2;
  auto engine = start(options);
  GenerationRequest first = greedy("Once upon a time", 12);
  std::vector<int32_t> turn_one_prompt = first.prompt;
  CollectedReply one = collect_reply(*engine->submit(first));

  GenerationRequest second;
  second.prompt = turn_one_prompt;
  for (int32_t id : token_ids(one)) second.prompt.push_back(id);
  for (int32_t id : suite_.tokenizer->encode(" Then the dog", false, false))
    second.prompt.push_back(id);
  second.sampling.temperature = 0.0f;
  second.max_tokens = 12;

  CollectedReply warm = collect_reply(*engine->submit(second));
  engine->stop();  // one engine at a time on a model
  CollectedReply cold = run_alone(second);
  ASSERT_TRUE(warm.finish.has_value() && cold.finish.has_value());
  EXPECT_GE(warm.finish->usage.cached_tokens,
            static_cast<int64_t>(turn_one_prompt.size() + one.tokens.size() - 1));
  EXPECT_EQ(cold.finish->usage.cached_tokens, 0);
  EXPECT_EQ(token_ids(warm), token_ids(cold));
  EXPECT_GE(engine->stats().prefix_cache_hits, 1);
}

// With two threads the slots of a step draw their tokens on the pool at
// once; each seeded request still gets what it gets alone.
TEST_F(EngineTest, SeedsReproduceUnderConcurrency) {
  std::vector<GenerationRequest> requests;
  std::vector<std::vector<int32_t>> alone;
  for (int i = 0; i < 4; ++i) {
    GenerationRequest request = greedy(kPrompts[i], 24);
    request.sampling.temperature = 1.0f;
    request.sampling.seed = 1234 + i;
    // One of them takes top-p alone over the vocabulary, another the default chain.
    if (i == 1) request.sampling.top_k = 0, request.sampling.top_p = 0.9f;
    requests.push_back(request);
    alone.push_back(token_ids(run_alone(request)));
  }
  for (int threads : {1, 2}) {
    EngineOptions options;
    options.parallel = 4;
    options.threads = threads;
    auto engine = start(options);
    std::vector<RequestHandle> handles;
    for (const GenerationRequest& request : requests) handles.push_back(*engine->submit(request));
    for (size_t i = 0; i < handles.size(); ++i) {
      EXPECT_EQ(token_ids(collect_reply(handles[i])), alone[i])
          << "threads " << threads << " " << i;
    }
  }
}

TEST_F(EngineTest, OverlongPromptIsRefusedAtSubmit) {
  EngineOptions options;
  options.context_size = 16;
  auto engine = start(options);
  auto refused = engine->submit(greedy("Once upon a time there was a very long prompt that", 8));
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().kind(), ErrorKind::kContextLengthExceeded);
}

TEST_F(EngineTest, ContextLimitEndsWithLength) {
  EngineOptions options;
  options.context_size = 12;
  auto engine = start(options);
  GenerationRequest request = greedy("Once upon a time", -1);
  request.sampling.logit_bias = {{2, -1000.0f}};
  CollectedReply reply = collect_reply(*engine->submit(request));
  ASSERT_TRUE(reply.finish.has_value());
  EXPECT_EQ(reply.finish->reason, FinishReason::kLength);
  EXPECT_EQ(reply.finish->usage.prompt_tokens + reply.finish->usage.completion_tokens, 13);
}

// stories260K's heads have 8 dimensions: a Q8_0 group is 32.
TEST_F(EngineTest, AQuantizedCacheIsRefusedForHeadsOfNoWholeGroup) {
  EngineOptions options;
  options.cache_types = {kernels::ElementType::kQ8_0, kernels::ElementType::kF16};
  auto engine = Engine::start(*suite_.model, *suite_.tokenizer, options);
  ASSERT_FALSE(engine.ok());
  EXPECT_EQ(engine.error().kind(), ErrorKind::kInvalidArgument);
  EXPECT_NE(engine.error().message().find("multiple of 32"), std::string::npos)
      << engine.error().message();
}

TEST_F(EngineTest, FullQueueIsRefused) {
  EngineOptions options;
  options.parallel = 1;
  options.max_queue = 1;
  auto engine = start(options);
  GenerationRequest endless = greedy("Once upon a time", 400);
  endless.sampling.logit_bias = {{2, -1000.0f}};
  std::vector<RequestHandle> accepted;
  Error refusal = internal_error("none");
  for (int i = 0; i < 4; ++i) {
    auto handle = engine->submit(endless);
    if (handle.ok()) {
      accepted.push_back(*handle);
    } else {
      refusal = handle.error();
    }
  }
  EXPECT_LE(accepted.size(), 3u);
  EXPECT_EQ(refusal.kind(), ErrorKind::kResourceExhausted);
  for (auto& handle : accepted) handle.cancel();
  for (auto& handle : accepted) collect_reply(handle);
}

// Scoring a prompt: the log-probability of each prompt token given the
// ones before it equals what a generation from that prefix reports of its
// greedy token, and max_tokens 0 samples nothing.
TEST_F(EngineTest, ScoredPromptMatchesTheGreedyDrawFromEachPrefix) {
  GenerationRequest scored = greedy("Once upon a time there was", 0);
  scored.prompt_logprobs = 2;
  const std::vector<int32_t> prompt = scored.prompt;
  ASSERT_GE(prompt.size(), 4u);
  CollectedReply reply = run_alone(scored);
  ASSERT_TRUE(reply.finish.has_value());
  EXPECT_EQ(reply.finish->reason, FinishReason::kLength);
  EXPECT_EQ(reply.finish->usage.completion_tokens, 0);
  EXPECT_EQ(reply.content, "");
  ASSERT_EQ(token_ids(reply), prompt);
  EXPECT_FALSE(reply.tokens[0].has_logprob);
  for (size_t i = 1; i < prompt.size(); ++i) {
    const GeneratedToken& token = reply.tokens[i];
    ASSERT_TRUE(token.has_logprob);
    EXPECT_LE(token.logprob, 0.0f);
    ASSERT_EQ(token.top.size(), 2u);
    EXPECT_GE(token.top[0].logprob, token.top[1].logprob);

    GenerationRequest prefix;
    prefix.prompt.assign(prompt.begin(), prompt.begin() + static_cast<ptrdiff_t>(i));
    prefix.sampling.temperature = 0.0f;
    prefix.sampling.logprobs = true;
    prefix.max_tokens = 1;
    CollectedReply next = run_alone(prefix);
    ASSERT_EQ(next.tokens.size(), 1u);
    EXPECT_EQ(next.tokens[0].id, token.top[0].id) << "position " << i;
    EXPECT_NEAR(next.tokens[0].logprob, token.top[0].logprob, 1e-4) << "position " << i;
    if (token.id == token.top[0].id) {
      EXPECT_NEAR(token.logprob, token.top[0].logprob, 1e-6);
    }
  }
}

TEST_F(EngineTest, ScoredPromptComesBeforeTheGeneratedTokens) {
  GenerationRequest request = greedy("Once upon a time", 3);
  request.prompt_logprobs = 0;
  request.sampling.logprobs = true;
  const size_t prompt_size = request.prompt.size();
  EngineOptions options;
  options.parallel = 2;
  auto engine = start(options);
  // The second request shares the first's prefix: scoring must not reuse it.
  ASSERT_TRUE(engine->submit(greedy("Once upon a time", 3)).ok());
  auto handle = engine->submit(request);
  ASSERT_TRUE(handle.ok());
  CollectedReply reply = collect_reply(*handle);
  ASSERT_TRUE(reply.finish.has_value());
  EXPECT_EQ(reply.finish->usage.completion_tokens, 3);
  EXPECT_EQ(reply.finish->usage.cached_tokens, 0);
  ASSERT_EQ(reply.tokens.size(), prompt_size + 3);
  EXPECT_FALSE(reply.tokens[0].has_logprob);
  for (size_t i = 1; i < reply.tokens.size(); ++i) EXPECT_TRUE(reply.tokens[i].has_logprob);
  std::vector<int32_t> all = token_ids(reply);
  std::vector<int32_t> generated(all.begin() + static_cast<ptrdiff_t>(prompt_size), all.end());
  EXPECT_EQ(token_ids(run_alone(greedy("Once upon a time", 3))), generated);
}

// A reply that opens in its reasoning block (the prompt opened it) spends
// its budget of reasoning tokens, then the close tag is drawn in place of
// sampled tokens and the answer follows. stories260K never writes the tag
// by itself, so without the budget everything is reasoning.
TEST_F(EngineTest, ReasoningBudgetForcesTheCloseTagAndTheAnswerFollows) {
  auto thinking = [](int32_t budget) {
    GenerationRequest request = greedy("Once upon a time", 40);
    request.reasoning = ReasoningTags{"<think>", "</think>"};
    request.prompt_opens_reasoning = true;
    request.reasoning_budget = budget;
    return run_alone(std::move(request));
  };
  CollectedReply unlimited = thinking(-1);
  EXPECT_EQ(unlimited.content, "");
  EXPECT_FALSE(unlimited.reasoning.empty());

  CollectedReply budgeted = thinking(5);
  const std::vector<int32_t> close =
      suite_.tokenizer->encode("</think>", /*add_special=*/false, /*parse_special=*/true);
  const std::vector<int32_t> ids = token_ids(budgeted);
  ASSERT_GT(ids.size(), 5 + close.size());
  EXPECT_EQ(
      std::vector<int32_t>(ids.begin() + 5, ids.begin() + 5 + static_cast<ptrdiff_t>(close.size())),
      close);
  // The same five reasoning tokens as without the budget, then an answer.
  const std::vector<int32_t> unlimited_ids = token_ids(unlimited);
  EXPECT_EQ(std::vector<int32_t>(ids.begin(), ids.begin() + 5),
            std::vector<int32_t>(unlimited_ids.begin(), unlimited_ids.begin() + 5));
  EXPECT_FALSE(budgeted.content.empty());
  ASSERT_TRUE(budgeted.finish.has_value());
  // Usage counts the tokens inside the thinking block: all of an unlimited
  // reply's, and a budgeted one's up to its close tag.
  ASSERT_TRUE(unlimited.finish.has_value());
  EXPECT_EQ(unlimited.finish->usage.reasoning_tokens, unlimited.finish->usage.completion_tokens);
  EXPECT_GE(budgeted.finish->usage.reasoning_tokens, 5);
  EXPECT_LE(budgeted.finish->usage.reasoning_tokens, 5 + static_cast<int64_t>(close.size()));
  EXPECT_LT(budgeted.finish->usage.reasoning_tokens, budgeted.finish->usage.completion_tokens);
}

// The prefix cache is the engine's, not a slot's: a request starts from
// the longest prefix any sequence computed (on another slot, or finished
// and gone), computes only the rest, and draws what a cold run draws.
const std::string kSharedStory =
    "Once upon a time, there was a little girl named Lily. She loved to play outside in the "
    "park with her friends. One day, she saw a big red ball under a tree and ran to get it. "
    "Her mom said it was time to go home, but Lily wanted to";

// The story is computed once. A long request that starts with it and a
// second queued right behind it cannot share one slot while the long one
// prefills (in small chunks, saying nothing), so one of them starts from
// blocks the other slot holds.
TEST_F(EngineTest, ARequestOnAnotherSlotStartsFromTheFirstsBlocks) {
  std::string filler;
  for (int i = 0; i < 24; ++i) filler += " They played in the park all day long.";
  GenerationRequest story = no_end(kSharedStory + " play with the dog.", 1);
  GenerationRequest holder = no_end(kSharedStory + " play with the dog." + filler, 4);
  GenerationRequest second = no_end(kSharedStory + " find her cat.", 12);
  const size_t common = common_prefix(story.prompt, second.prompt);
  const int64_t block = model::KvCache::kDefaultBlockSize;
  // Reused in whole blocks only: a slot's own cache would reuse all of it.
  ASSERT_NE(common % size_t(block), 0u) << "the test wants a prefix that ends inside a block";
  ASSERT_GE(common, size_t(block));

  EngineOptions options;
  options.parallel = 2;
  options.batch_size = 32;
  options.context_size = 2048;
  auto engine = start(options);
  collect_reply(*engine->submit(story));
  RequestHandle held = *engine->submit(holder);
  CollectedReply two = collect_reply(*engine->submit(second));
  CollectedReply holding = collect_reply(held);
  engine->stop();  // one engine at a time on a model
  CollectedReply cold = run_alone(second);

  ASSERT_TRUE(holding.finish.has_value() && two.finish.has_value() && cold.finish.has_value());
  // One of the two ran on the slot the story left and reused it all there;
  // the other took the story's whole blocks from that slot.
  EXPECT_EQ(std::min(holding.finish->usage.cached_tokens, two.finish->usage.cached_tokens),
            int64_t(common) / block * block);
  EXPECT_EQ(cold.finish->usage.cached_tokens, 0);
  EXPECT_EQ(token_ids(two), token_ids(cold));
}

TEST_F(EngineTest, AFinishedRequestsBlocksServeALaterOneAfterItsSlotMovedOn) {
  GenerationRequest first = no_end(kSharedStory + " play with the dog.", 8);
  GenerationRequest other = no_end("The sun was shining and the birds were singing.", 8);
  GenerationRequest second = no_end(kSharedStory + " find her cat.", 12);
  const int64_t block = model::KvCache::kDefaultBlockSize;
  const size_t common = common_prefix(first.prompt, second.prompt);

  EngineOptions options;
  options.parallel = 1;
  auto engine = start(options);
  collect_reply(*engine->submit(first));
  CollectedReply between = collect_reply(*engine->submit(other));
  CollectedReply warm = collect_reply(*engine->submit(second));
  EXPECT_GT(engine->stats().kv_blocks_cached, 0);
  engine->stop();
  CollectedReply cold = run_alone(second);

  ASSERT_TRUE(between.finish.has_value() && warm.finish.has_value() && cold.finish.has_value());
  EXPECT_LE(between.finish->usage.cached_tokens, 1);  // the BOS token, at most
  EXPECT_EQ(warm.finish->usage.cached_tokens, int64_t(common) / block * block);
  EXPECT_EQ(token_ids(warm), token_ids(cold));
}

// Four prompts with one long prefix, arriving together on four slots: one
// slot computes the prefix and the others take its blocks as they are
// published, whatever the order the engine admits them in; each reply is
// its solo run's.
TEST_F(EngineTest, PromptsArrivingTogetherWithOnePrefixComputeItOnce) {
  std::string prefix;
  for (int i = 0; i < 12; ++i) prefix += " The little dog ran to the park and played with a ball.";
  const std::vector<std::string> endings = {" Then it slept.", " Mom called it home.",
                                            " A cat watched it.", " The sun went down."};
  std::vector<GenerationRequest> requests;
  for (const std::string& ending : endings) requests.push_back(no_end(prefix + ending, 6));
  size_t shared = requests[0].prompt.size();
  for (const GenerationRequest& r : requests) {
    shared = std::min(shared, common_prefix(requests[0].prompt, r.prompt));
  }
  const size_t block = size_t(model::KvCache::kDefaultBlockSize);
  ASSERT_GE(shared, 4 * block);

  EngineOptions options;
  options.parallel = 4;
  options.batch_size = 32;
  auto engine = start(options);
  std::vector<RequestHandle> handles;
  for (const GenerationRequest& r : requests) handles.push_back(*engine->submit(r));
  std::vector<CollectedReply> replies;
  for (RequestHandle& handle : handles) replies.push_back(collect_reply(handle));
  engine->stop();

  size_t computed = 0, at_most = shared;
  for (size_t i = 0; i < requests.size(); ++i) {
    ASSERT_TRUE(replies[i].finish.has_value());
    computed +=
        size_t(replies[i].finish->usage.prompt_tokens - replies[i].finish->usage.cached_tokens);
    at_most += requests[i].prompt.size() - shared / block * block;
  }
  EXPECT_LE(computed, at_most);
  for (size_t i = 0; i < requests.size(); ++i) {
    EXPECT_EQ(token_ids(replies[i]), token_ids(run_alone(requests[i]))) << i;
  }
}

// A request in between takes the slot's whole context: the first
// request's blocks survive it only in the prompt cache's room (--cache-ram).
TEST_F(EngineTest, ThePromptCachesRoomKeepsBlocksWhileTheSlotsContextIsTakenBetween) {
  const int64_t block = model::KvCache::kDefaultBlockSize;
  const int64_t context = 256;
  GenerationRequest first = no_end(kSharedStory + " play with the dog.", 8);
  GenerationRequest second = no_end(kSharedStory + " find her cat.", 8);
  std::string filler;
  GenerationRequest other = no_end(filler, 8);
  while (int64_t(other.prompt.size()) + 8 <= context - block) {
    filler += " They played in the park all day long.";
    other = no_end(filler, 8);
  }
  other.max_tokens = int32_t(context - int64_t(other.prompt.size()) - 1);
  const size_t common = common_prefix(first.prompt, second.prompt);
  ASSERT_GE(common, size_t(block));
  ASSERT_LT(other.prompt.size(), size_t(context));

  auto cached_by_second = [&](int64_t cache_ram_bytes) {
    EngineOptions options;
    options.parallel = 1;
    options.context_size = context;
    options.cache_ram_bytes = cache_ram_bytes;
    auto engine = start(options);
    collect_reply(*engine->submit(first));
    CollectedReply between = collect_reply(*engine->submit(other));
    EXPECT_EQ(between.finish->usage.completion_tokens, other.max_tokens);
    CollectedReply warm = collect_reply(*engine->submit(second));
    return warm.finish->usage.cached_tokens;
  };
  EXPECT_LE(cached_by_second(0), 1);  // the BOS token, at most
  const int64_t room = suite_.model->kv_bytes_per_position() * context;
  EXPECT_EQ(cached_by_second(room), int64_t(common) / block * block);
}

}  // namespace
}  // namespace ingot::engine
