// Engines taking turns on one pool of compute threads (serve --models):
// a turn excludes every other, and two engines on two models decoding at
// once each give their solo runs' replies.

#include "engine/shared_compute.h"

#include <gtest/gtest.h>

#include <thread>

#include "engine/engine.h"
#include "engine/suite_model.h"
#include "support/shared_data.h"
#include "support/synthetic_model.h"

namespace ingot::engine {
namespace {

TEST(SharedCompute, ATurnExcludesEveryOther) {
  SharedCompute compute(1);
  int64_t counter = 0;  // not atomic: only turns keep the threads apart
  auto work = [&] {
    for (int i = 0; i < 20000; ++i) {
      SharedCompute::Turn turn = compute.take_turn();
      const int64_t seen = counter;
      counter = seen + 1;
    }
  };
  std::thread a(work), b(work);
  a.join();
  b.join();
  EXPECT_EQ(counter, 40000);
}

GenerationRequest greedy(const std::vector<int32_t>& prompt) {
  GenerationRequest request;
  request.prompt = prompt;
  request.max_tokens = 12;
  request.sampling.temperature = 0.0f;
  return request;
}

std::vector<std::vector<int32_t>> replies(Engine& engine,
                                          const std::vector<std::vector<int32_t>>& prompts) {
  std::vector<RequestHandle> handles;
  for (const auto& prompt : prompts) handles.push_back(*engine.submit(greedy(prompt)));
  std::vector<std::vector<int32_t>> tokens;
  for (RequestHandle& handle : handles)
    tokens.push_back(token_ids(collect_reply(std::move(handle))));
  return tokens;
}

TEST(SharedCompute, TwoEnginesOnSharedThreadsGiveTheirSoloReplies) {
  INGOT_REQUIRE_SHARED();
  SuiteModel first, second;
  first.load_file(ingot::testing::synthetic_model("tiny", "f16"));
  second.load_file(ingot::testing::synthetic_model("tiny", "q8_0"));
  const std::vector<std::vector<int32_t>> prompts = {{1, 15, 27, 300}, {1, 99, 4, 8, 16}, {1, 7}};
  EngineOptions options;
  options.parallel = 2;
  options.threads = 2;
  auto solo = [&](SuiteModel& suite) {
    auto engine = Engine::start(*suite.model, *suite.tokenizer, options);
    EXPECT_TRUE(engine.ok());
    auto tokens = replies(**engine, prompts);
    (*engine)->stop();
    return tokens;
  };
  const auto first_solo = solo(first), second_solo = solo(second);

  options.shared_compute = std::make_shared<SharedCompute>(2);
  auto one = Engine::start(*first.model, *first.tokenizer, options);
  auto two = Engine::start(*second.model, *second.tokenizer, options);
  ASSERT_TRUE(one.ok() && two.ok());
  std::vector<std::vector<int32_t>> first_shared, second_shared;
  std::thread reader([&] { second_shared = replies(**two, prompts); });
  first_shared = replies(**one, prompts);
  reader.join();
  (*one)->stop();
  (*two)->stop();
  EXPECT_EQ(first_shared, first_solo);
  EXPECT_EQ(second_shared, second_solo);
  EXPECT_NE(first_solo, second_solo);  // the two models do differ
}

}  // namespace
}  // namespace ingot::engine
