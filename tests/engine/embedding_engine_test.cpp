// Embedding requests through the engine (GenerationRequest::pooling) on a
// decoder model (tiny: Qwen3's layout): the pooled hidden state of each
// prompt against llama.cpp's (tests/fixtures/embeddings, made by its
// llama_get_embeddings_seq with the same pooling; see that folder's
// README), alone and with the other prompts and a chat request in the same
// batches.

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
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

void expect_matches_llama_cpp(const std::string& type, const std::string& pooling_name,
                              Pooling pooling, double min_cosine) {
  SuiteModel suite;
  suite.load_file(ingot::testing::synthetic_model("tiny", type));
  EngineOptions options;
  options.parallel = 3;
  options.threads = 2;
  auto engine = Engine::start(*suite.model, *suite.tokenizer, options);
  ASSERT_TRUE(engine.ok()) << engine.error().describe();
  const std::vector<EmbeddingCase> cases = read_cases("tiny-" + type + "-" + pooling_name);
  // Alone, one after another.
  std::vector<std::vector<float>> alone;
  for (const EmbeddingCase& c : cases) {
    CollectedReply reply = collect_reply(*(*engine)->submit(embedding_request(c.tokens, pooling)));
    ASSERT_TRUE(reply.finish.has_value());
    EXPECT_EQ(reply.finish->usage.prompt_tokens, int64_t(c.tokens.size()));
    EXPECT_EQ(reply.finish->usage.completion_tokens, 0);
    ASSERT_EQ(reply.finish->embedding.size(), c.embedding.size());
    EXPECT_GE(cosine(reply.finish->embedding, c.embedding), min_cosine)
        << type << " " << pooling_name;
    alone.push_back(reply.finish->embedding);
  }
  // All together, beside a chat request: the same vectors.
  GenerationRequest chat;
  chat.prompt = cases[1].tokens;
  chat.max_tokens = 8;
  chat.sampling.temperature = 0.0f;
  RequestHandle chat_handle = *(*engine)->submit(chat);
  std::vector<RequestHandle> handles;
  for (const EmbeddingCase& c : cases) {
    handles.push_back(*(*engine)->submit(embedding_request(c.tokens, pooling)));
  }
  for (size_t i = 0; i < handles.size(); ++i) {
    CollectedReply reply = collect_reply(std::move(handles[i]));
    ASSERT_TRUE(reply.finish.has_value());
    EXPECT_GE(cosine(reply.finish->embedding, alone[i]), 0.999999) << i;
  }
  EXPECT_EQ(collect_reply(std::move(chat_handle)).tokens.size(), 8u);
  (*engine)->stop();
}

TEST(EmbeddingEngine, LastTokenPoolingMatchesLlamaCpp) {
  INGOT_REQUIRE_SHARED();
  expect_matches_llama_cpp("f16", "last", Pooling::kLast, 0.9999);
  expect_matches_llama_cpp("q8_0", "last", Pooling::kLast, 0.999);
}

TEST(EmbeddingEngine, MeanPoolingMatchesLlamaCpp) {
  INGOT_REQUIRE_SHARED();
  expect_matches_llama_cpp("f16", "mean", Pooling::kMean, 0.9999);
  expect_matches_llama_cpp("q8_0", "mean", Pooling::kMean, 0.999);
}

}  // namespace
}  // namespace ingot::engine
