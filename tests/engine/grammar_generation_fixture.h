#pragma once
// The setting grammar-constrained generation tests share: tiny-qwen3
// (random weights, Qwen's real vocabulary) behind an engine with 4 slots,
// requests at temperature 1 with every sampler cut-off off, and a batch
// runner that drains each reply as it comes.

#include <gtest/gtest.h>

#include <algorithm>
#include <future>
#include <memory>
#include <string_view>
#include <vector>

#include "engine/engine.h"
#include "engine/suite_model.h"
#include "sampling/grammar/gbnf_parser.h"
#include "support/shared_data.h"

namespace ingot::engine {

class GrammarGenerationFixture : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { suite_.load("models/tiny-qwen3-f16.gguf"); }
  static void TearDownTestSuite() { suite_.reset(); }
  void SetUp() override {
    INGOT_REQUIRE_SHARED();
    EngineOptions options;
    options.parallel = 4;
    options.threads = 1;
    options.context_size = 1024;
    auto engine = Engine::start(*suite_.model, *suite_.tokenizer, options);
    ASSERT_TRUE(engine.ok()) << engine.error().describe();
    engine_ = std::move(engine).value();
  }

  static std::shared_ptr<const sampling::grammar::Grammar> compile(std::string_view text) {
    auto grammar = sampling::grammar::parse_gbnf(text);
    EXPECT_TRUE(grammar.ok()) << grammar.error().describe();
    return grammar.ok() ? *grammar : nullptr;
  }

  static GenerationRequest request(std::shared_ptr<const sampling::grammar::Grammar> grammar,
                                   uint64_t seed, int32_t max_tokens) {
    GenerationRequest r;
    r.prompt = suite_.tokenizer->encode(
        "<|im_start|>user\nGive me JSON<|im_end|>\n<|im_start|>assistant\n", false, true);
    r.sampling.temperature = 1.0f;
    r.sampling.top_k = 0;
    r.sampling.top_p = 1.0f;
    r.sampling.min_p = 0.0f;
    r.sampling.seed = seed;
    r.sampling.grammar = std::move(grammar);
    r.max_tokens = max_tokens;
    return r;
  }

  // Submits one request per seed (the engine decodes them side by side).
  std::vector<CollectedReply> run(const std::vector<GenerationRequest>& requests) {
    std::vector<CollectedReply> replies;
    for (size_t begin = 0; begin < requests.size(); begin += 8) {
      std::vector<RequestHandle> handles;
      for (size_t i = begin; i < std::min(requests.size(), begin + 8); ++i) {
        auto handle = engine_->submit(requests[i]);
        EXPECT_TRUE(handle.ok()) << handle.error().describe();
        if (handle.ok()) handles.push_back(std::move(*handle));
      }
      // Each reply is drained as it comes, so no event channel fills up.
      std::vector<std::future<CollectedReply>> pending;
      for (auto& handle : handles) {
        pending.push_back(std::async(std::launch::async, [h = std::move(handle)]() mutable {
          return collect_reply(std::move(h));
        }));
      }
      for (auto& reply : pending) replies.push_back(reply.get());
    }
    return replies;
  }

  static inline SuiteModel suite_;
  std::unique_ptr<Engine> engine_;
};

}  // namespace ingot::engine
