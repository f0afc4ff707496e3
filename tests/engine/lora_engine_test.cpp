// Requests with LoRA adapters through the engine, on the tiny model with
// adapters a and b (ingot-synth --lora-rank 8 --seed 11 and 12): each
// request's greedy reply is llama.cpp's for its adapters
// (tests/fixtures/golden/tiny-f16*.json), alone and with requests on other
// adapters and none in the same steps; and a slot never reuses keys its
// previous request computed under other adapters.

#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "engine/engine.h"
#include "engine/suite_model.h"
#include "model/kv_cache.h"
#include "model/lora_adapter.h"
#include "support/shared_data.h"
#include "support/synthetic_model.h"

namespace ingot::engine {
namespace {

struct Golden {
  std::vector<int32_t> prompt;
  std::vector<int32_t> reply;  // llama.cpp's greedy tokens
};

Golden read_case(const std::string& fixture, size_t index) {
  std::ifstream in(ingot::testing::source_dir() / "tests/fixtures/golden" / (fixture + ".json"));
  const nlohmann::json c = nlohmann::json::parse(in)["cases"][index];
  Golden golden{c["prompt_tokens"].get<std::vector<int32_t>>(), {}};
  for (const auto& step : c["steps"]) golden.reply.push_back(step["token"].get<int32_t>());
  return golden;
}

GenerationRequest greedy(const Golden& golden, model::LoraSet lora) {
  GenerationRequest request;
  request.prompt = golden.prompt;
  request.max_tokens = int32_t(golden.reply.size());
  request.sampling.temperature = 0.0f;
  request.lora = std::move(lora);
  return request;
}

class LoraEngine : public ::testing::Test {
 protected:
  void SetUp() override {
    INGOT_REQUIRE_SHARED();
    suite_.load_file(ingot::testing::synthetic_model("tiny", "f16"));
    const model::ModelConfig& config = suite_.model->config();
    a_ = *model::LoraAdapter::load(ingot::testing::synthetic_lora("tiny", 11), config);
    b_ = *model::LoraAdapter::load(ingot::testing::synthetic_lora("tiny", 12), config);
  }

  SuiteModel suite_;
  std::shared_ptr<const model::LoraAdapter> a_, b_;
};

TEST_F(LoraEngine, MixedAdaptersInOneStepGiveEachItsOwnReply) {
  EngineOptions options;
  options.parallel = 4;
  options.threads = 2;
  auto engine = Engine::start(*suite_.model, *suite_.tokenizer, options);
  ASSERT_TRUE(engine.ok()) << engine.error().describe();
  const Golden with_a = read_case("tiny-f16-lora-a", 1), with_b = read_case("tiny-f16-lora-b", 2),
               bare = read_case("tiny-f16", 3), half = read_case("tiny-f16-lora-a-0.5", 0);
  std::vector<RequestHandle> handles;
  handles.push_back(*(*engine)->submit(greedy(with_a, {{a_.get(), 1.0f}})));
  handles.push_back(*(*engine)->submit(greedy(with_b, {{b_.get(), 1.0f}})));
  handles.push_back(*(*engine)->submit(greedy(bare, {})));
  handles.push_back(*(*engine)->submit(greedy(half, {{a_.get(), 0.5f}})));
  const std::vector<int32_t>* expected[] = {&with_a.reply, &with_b.reply, &bare.reply, &half.reply};
  for (size_t i = 0; i < handles.size(); ++i) {
    EXPECT_EQ(token_ids(collect_reply(std::move(handles[i]))), *expected[i]) << i;
  }
  (*engine)->stop();
}

// One slot, the same prompt four times: with adapter a, then bare, then
// with a twice. The bare run must not reuse a's keys, nor a's later runs
// the bare ones: they find a's whole blocks, kept in the cache.
TEST_F(LoraEngine, ASlotReusesOnlyWhatTheSameAdaptersComputed) {
  EngineOptions options;
  options.parallel = 1;
  options.threads = 2;
  auto engine = Engine::start(*suite_.model, *suite_.tokenizer, options);
  ASSERT_TRUE(engine.ok()) << engine.error().describe();
  const Golden with_a = read_case("tiny-f16-lora-a", 2), bare = read_case("tiny-f16", 2);
  ASSERT_EQ(with_a.prompt, bare.prompt);
  const model::LoraSet a{{a_.get(), 1.0f}};
  EXPECT_EQ(token_ids(collect_reply(*(*engine)->submit(greedy(with_a, a)))), with_a.reply);
  CollectedReply second = collect_reply(*(*engine)->submit(greedy(bare, {})));
  EXPECT_EQ(token_ids(second), bare.reply);
  EXPECT_EQ(second.finish->usage.cached_tokens, 0);
  const int64_t block = model::KvCache::kDefaultBlockSize;
  const int64_t whole_blocks = int64_t(with_a.prompt.size() - 1) / block * block;
  CollectedReply third = collect_reply(*(*engine)->submit(greedy(with_a, a)));
  EXPECT_EQ(token_ids(third), with_a.reply);
  EXPECT_EQ(third.finish->usage.cached_tokens, whole_blocks);  // a's first run's blocks
  CollectedReply fourth = collect_reply(*(*engine)->submit(greedy(with_a, a)));
  EXPECT_EQ(token_ids(fourth), with_a.reply);
  EXPECT_GT(fourth.finish->usage.cached_tokens, 0);  // the same adapters: reused
  (*engine)->stop();
}

// Prefix blocks are shared per adapter set: a finished request's blocks
// serve a later request on the same adapters after the slot moved on to
// other adapters, never the request on those others; and the reply is a
// cold run's.
TEST_F(LoraEngine, BlocksServeLaterRequestsOnTheSameAdaptersOnly) {
  std::vector<int32_t> prefix;
  while (prefix.size() < 100) {
    const Golden c = read_case("tiny-f16-lora-a", prefix.size() % 4);
    prefix.insert(prefix.end(), c.prompt.begin(), c.prompt.end());
  }
  auto request = [&](int32_t last, const model::LoraSet& lora) {
    GenerationRequest r;
    r.prompt = prefix;
    r.prompt.push_back(last);
    r.max_tokens = 8;
    r.sampling.temperature = 0.0f;
    r.lora = lora;
    return r;
  };
  const model::LoraSet a{{a_.get(), 1.0f}}, b{{b_.get(), 1.0f}};
  const int64_t block = model::KvCache::kDefaultBlockSize;
  const int64_t shared = int64_t(prefix.size()) / block * block;
  EngineOptions options;
  options.parallel = 1;
  options.threads = 2;
  std::vector<int32_t> warm_tokens;
  {
    auto engine = Engine::start(*suite_.model, *suite_.tokenizer, options);
    ASSERT_TRUE(engine.ok()) << engine.error().describe();
    collect_reply(*(*engine)->submit(request(100, a)));
    CollectedReply other = collect_reply(*(*engine)->submit(request(200, b)));
    EXPECT_EQ(other.finish->usage.cached_tokens, 0);
    CollectedReply warm = collect_reply(*(*engine)->submit(request(200, a)));
    EXPECT_EQ(warm.finish->usage.cached_tokens, shared);
    warm_tokens = token_ids(warm);
    (*engine)->stop();
  }
  auto cold_engine = Engine::start(*suite_.model, *suite_.tokenizer, options);
  ASSERT_TRUE(cold_engine.ok());
  CollectedReply cold = collect_reply(*(*cold_engine)->submit(request(200, a)));
  EXPECT_EQ(cold.finish->usage.cached_tokens, 0);
  EXPECT_EQ(warm_tokens, token_ids(cold));
  (*cold_engine)->stop();
}

}  // namespace
}  // namespace ingot::engine
