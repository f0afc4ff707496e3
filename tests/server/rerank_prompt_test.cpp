// The tokens of a (query, document) pair against those llama-server's
// format_prompt_rerank gave for the rank fixtures (tests/fixtures/embeddings
// *-rank.json): BERT's [CLS] query [SEP] document, and Qwen3-Reranker's
// rerank template.

#include "server/rerank_prompt.h"

#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "gguf/reader.h"
#include "support/shared_data.h"
#include "support/synthetic_model.h"

namespace ingot::server {
namespace {

void expect_fixture_tokens(const std::string& shape) {
  const auto file = gguf::GgufFile::open(ingot::testing::synthetic_model(shape, "f16"));
  ASSERT_TRUE(file.ok()) << file.error().describe();
  const auto tokenizer = tokenizer::Tokenizer::from_gguf(*file);
  ASSERT_TRUE(tokenizer.ok()) << tokenizer.error().describe();
  const auto rerank_template =
      file->metadata().get_or<std::string>("tokenizer.chat_template.rerank", std::string());
  std::ifstream in(ingot::testing::source_dir() / "tests/fixtures/embeddings" /
                   (shape + "-f16-rank.json"));
  const nlohmann::json fixture = nlohmann::json::parse(in);
  const std::string query = fixture["query"];
  for (const auto& c : fixture["cases"]) {
    std::optional<std::string> chosen;
    if (!rerank_template.empty()) chosen = rerank_template;
    EXPECT_EQ(rerank_tokens(*tokenizer, chosen, query, c["document"].get<std::string>()),
              c["tokens"].get<std::vector<int32_t>>())
        << shape << ": " << c["document"];
  }
}

TEST(RerankPrompt, BertPairsAsLlamaServer) {
  INGOT_REQUIRE_SHARED();
  expect_fixture_tokens("tiny-bert-reranker");
}

TEST(RerankPrompt, TheFilesRerankTemplateAsLlamaServer) {
  INGOT_REQUIRE_SHARED();
  expect_fixture_tokens("tiny-qwen3-reranker");
}

}  // namespace
}  // namespace ingot::server
