// Embedding requests through the engine (GenerationRequest::pooling) on a
// decoder model (tiny: Qwen3's layout) and on encoders (tiny-bert,
// tiny-nomic-bert): the pooled hidden state of each prompt against
// llama.cpp's (tests/fixtures/embeddings, made by its
// llama_get_embeddings_seq with the same pooling; see that folder's
// README), alone and with the other prompts (and, for the decoder, a chat
// request) in the same batches.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "engine/engine.h"
#include "engine/suite_model.h"
#include "support/shared_data.h"
#include "support/synthetic_model.h"

namespace ingot::engine {
namespace {

struct EmbeddingCase {
  std::vector<int32_t> tokens;
  std::vector<float> embedding;
};

std::vector<EmbeddingCase> read_cases(const std::string& name) {
  std::ifstream file(ingot::testing::source_dir() / "tests/fixtures/embeddings" / (name + ".json"));
  const nlohmann::json fixture = nlohmann::json::parse(file);
  std::vector<EmbeddingCase> cases;
  for (const auto& c : fixture["cases"]) {
    cases.push_back(
        {c["tokens"].get<std::vector<int32_t>>(), c["embedding"].get<std::vector<float>>()});
  }
  return cases;
}

double cosine(const std::vector<float>& a, const std::vector<float>& b) {
  double dot = 0, aa = 0, bb = 0;
  for (size_t i = 0; i < a.size() && i < b.size(); ++i) {
    dot += double(a[i]) * b[i];
    aa += double(a[i]) * a[i];
    bb += double(b[i]) * b[i];
  }
  return dot / std::sqrt(aa * bb);
}

GenerationRequest embedding_request(const std::vector<int32_t>& tokens, Pooling pooling) {
  GenerationRequest request;
  request.prompt = tokens;
  request.max_tokens = 0;
  request.pooling = pooling;
  return request;
}

// Under the sanitizers, the F16 files alone: the quantized kernels meet
// ASan in the kernel and golden suites, and the engine's code is the same
// for every type.
#if defined(INGOT_UNDER_SANITIZERS)
constexpr bool kUnderSanitizers = true;
#else
constexpr bool kUnderSanitizers = false;
#endif

void expect_matches_llama_cpp(const std::string& shape, const std::string& type,
                              const std::string& pooling_name, Pooling pooling, double min_cosine) {
  SuiteModel suite;
  suite.load_file(ingot::testing::synthetic_model(shape, type));
  const bool generative = !suite.model->config().traits.encoder;
  EngineOptions options;
  options.parallel = 3;
  options.threads = 2;
  auto engine = Engine::start(*suite.model, *suite.tokenizer, options);
  ASSERT_TRUE(engine.ok()) << engine.error().describe();
  const std::vector<EmbeddingCase> cases = read_cases(shape + "-" + type + "-" + pooling_name);
  // Alone, one after another.
  std::vector<std::vector<float>> alone;
  for (const EmbeddingCase& c : cases) {
    CollectedReply reply = collect_reply(*(*engine)->submit(embedding_request(c.tokens, pooling)));
    ASSERT_TRUE(reply.finish.has_value());
    EXPECT_EQ(reply.finish->usage.prompt_tokens, int64_t(c.tokens.size()));
    EXPECT_EQ(reply.finish->usage.completion_tokens, 0);
    ASSERT_EQ(reply.finish->embedding.size(), c.embedding.size());
    EXPECT_GE(cosine(reply.finish->embedding, c.embedding), min_cosine)
        << shape << " " << type << " " << pooling_name;
    alone.push_back(reply.finish->embedding);
  }
  // All together, beside a chat request: the same vectors.
  GenerationRequest chat;
  chat.prompt = cases[1].tokens;
  chat.max_tokens = 8;
  chat.sampling.temperature = 0.0f;
  std::optional<RequestHandle> chat_handle;
  if (generative) chat_handle = *(*engine)->submit(chat);
  std::vector<RequestHandle> handles;
  for (const EmbeddingCase& c : cases) {
    handles.push_back(*(*engine)->submit(embedding_request(c.tokens, pooling)));
  }
  for (size_t i = 0; i < handles.size(); ++i) {
    CollectedReply reply = collect_reply(std::move(handles[i]));
    ASSERT_TRUE(reply.finish.has_value());
    EXPECT_GE(cosine(reply.finish->embedding, alone[i]), 0.999999) << i;
  }
  if (chat_handle) {
    EXPECT_EQ(collect_reply(std::move(*chat_handle)).tokens.size(), 8u);
  }
  (*engine)->stop();
}

TEST(EmbeddingEngine, LastTokenPoolingMatchesLlamaCpp) {
  INGOT_REQUIRE_SHARED();
  expect_matches_llama_cpp("tiny", "f16", "last", Pooling::kLast, 0.9999);
  if (!kUnderSanitizers) expect_matches_llama_cpp("tiny", "q8_0", "last", Pooling::kLast, 0.999);
}

TEST(EmbeddingEngine, MeanPoolingMatchesLlamaCpp) {
  INGOT_REQUIRE_SHARED();
  expect_matches_llama_cpp("tiny", "f16", "mean", Pooling::kMean, 0.9999);
  if (!kUnderSanitizers) expect_matches_llama_cpp("tiny", "q8_0", "mean", Pooling::kMean, 0.999);
}

// BERT: post-norm layers, learned positions, every token seeing its whole
// sequence; pooled by CLS (BGE's) and by the mean.
TEST(EmbeddingEngine, BertMatchesLlamaCpp) {
  INGOT_REQUIRE_SHARED();
  for (const char* type : {"f16", "q8_0"}) {
    const double min_cosine = std::string(type) == "f16" ? 0.9999 : 0.999;
    expect_matches_llama_cpp("tiny-bert", type, "cls", Pooling::kCls, min_cosine);
    expect_matches_llama_cpp("tiny-bert", type, "mean", Pooling::kMean, min_cosine);
  }
}

// nomic-bert: fused q/k/v, RoPE, SwiGLU; mean pooling.
TEST(EmbeddingEngine, NomicBertMatchesLlamaCpp) {
  INGOT_REQUIRE_SHARED();
  expect_matches_llama_cpp("tiny-nomic-bert", "f16", "mean", Pooling::kMean, 0.9999);
  expect_matches_llama_cpp("tiny-nomic-bert", "q8_0", "mean", Pooling::kMean, 0.999);
}

struct RankCase {
  std::vector<int32_t> tokens;
  std::vector<float> scores;
};

std::vector<RankCase> read_rank_cases(const std::string& name) {
  std::ifstream file(ingot::testing::source_dir() / "tests/fixtures/embeddings" / (name + ".json"));
  const nlohmann::json fixture = nlohmann::json::parse(file);
  std::vector<RankCase> cases;
  for (const auto& c : fixture["cases"]) {
    cases.push_back(
        {c["tokens"].get<std::vector<int32_t>>(), c["scores"].get<std::vector<float>>()});
  }
  return cases;
}

std::vector<size_t> order_of(const std::vector<float>& scores) {
  std::vector<size_t> order(scores.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&scores](size_t a, size_t b) { return scores[a] > scores[b]; });
  return order;
}

// Each (query, document) pair's scores through rank pooling, submitted
// together, against llama.cpp's: every output within 1e-3 and the
// documents in the same order.
void expect_ranks_as_llama_cpp(const std::string& shape, const std::string& type) {
  SuiteModel suite;
  suite.load_file(ingot::testing::synthetic_model(shape, type));
  ASSERT_NE(suite.model->rank_head(), nullptr);
  EngineOptions options;
  options.parallel = 2;
  options.threads = 2;
  auto engine = Engine::start(*suite.model, *suite.tokenizer, options);
  ASSERT_TRUE(engine.ok()) << engine.error().describe();
  const std::vector<RankCase> cases = read_rank_cases(shape + "-" + type + "-rank");
  std::vector<RequestHandle> handles;
  for (const RankCase& c : cases) {
    handles.push_back(*(*engine)->submit(embedding_request(c.tokens, Pooling::kRank)));
  }
  std::vector<float> ours, theirs;
  for (size_t i = 0; i < cases.size(); ++i) {
    CollectedReply reply = collect_reply(std::move(handles[i]));
    ASSERT_TRUE(reply.finish.has_value());
    const std::vector<float>& scores = reply.finish->embedding;
    ASSERT_EQ(scores.size(), cases[i].scores.size());
    for (size_t j = 0; j < scores.size(); ++j) {
      EXPECT_NEAR(scores[j], cases[i].scores[j], 1e-3) << shape << " " << type << " " << i;
    }
    ours.push_back(scores[0]);
    theirs.push_back(cases[i].scores[0]);
  }
  EXPECT_EQ(order_of(ours), order_of(theirs)) << shape << " " << type;
  (*engine)->stop();
}

// bge-reranker's head: the [CLS] state through a dense tanh layer and
// cls.output.
TEST(EmbeddingEngine, BertRerankerScoresAsLlamaCpp) {
  INGOT_REQUIRE_SHARED();
  expect_ranks_as_llama_cpp("tiny-bert-reranker", "f16");
  expect_ranks_as_llama_cpp("tiny-bert-reranker", "q8_0");
}

// Qwen3-Reranker: the last token's normed state through cls.output (its
// "yes" and "no" rows), softmaxed.
TEST(EmbeddingEngine, Qwen3RerankerScoresAsLlamaCpp) {
  INGOT_REQUIRE_SHARED();
  expect_ranks_as_llama_cpp("tiny-qwen3-reranker", "f16");
  if (!kUnderSanitizers) expect_ranks_as_llama_cpp("tiny-qwen3-reranker", "q8_0");
}

// A model without a classification head refuses rank pooling.
TEST(EmbeddingEngine, RankPoolingNeedsAHead) {
  INGOT_REQUIRE_SHARED();
  SuiteModel suite;
  suite.load_file(ingot::testing::synthetic_model("tiny-bert", "f16"));
  EngineOptions options;
  options.parallel = 1;
  auto engine = Engine::start(*suite.model, *suite.tokenizer, options);
  ASSERT_TRUE(engine.ok());
  auto refused = (*engine)->submit(embedding_request({101, 2054, 102}, Pooling::kRank));
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().message().find("classification head"), std::string::npos);
  (*engine)->stop();
}

}  // namespace
}  // namespace ingot::engine
