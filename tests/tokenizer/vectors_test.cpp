// llama.cpp's tokenizer vectors (../shared/fixtures/tokenizer): every case of
// every vocabulary must give exactly the expected ids, and decoding them must
// give the input back wherever the vocabulary does not normalize text.

#include <gtest/gtest.h>

#include <string>

#include "tokenizer_fixtures.h"

namespace ingot::tokenizer {
namespace {

using testing::read_vector_inputs;
using testing::read_vector_outputs;
using testing::shared_tokenizer;

struct VectorSet {
  const char* name;        // ggml-vocab-<name>.gguf.inp/.out
  const char* vocabulary;  // under ../shared
  bool normalizes;         // decode(encode(text)) != text by design
};

void PrintTo(const VectorSet& set, std::ostream* os) {
  *os << set.name;
}

class TokenizerVectors : public ::testing::TestWithParam<VectorSet> {
 protected:
  std::string fixture(const std::string& suffix) const {
    return ingot::testing::shared_path(std::string("fixtures/tokenizer/ggml-vocab-") +
                                       GetParam().name + suffix)
        .string();
  }
};

TEST_P(TokenizerVectors, MatchLlamaCpp) {
  INGOT_REQUIRE_SHARED();
  const Tokenizer* tokenizer = shared_tokenizer(GetParam().vocabulary);
  ASSERT_NE(tokenizer, nullptr);
  auto inputs = read_vector_inputs(fixture(".gguf.inp"));
  auto expected = read_vector_outputs(fixture(".gguf.out"));
  ASSERT_EQ(inputs.size(), expected.size());
  ASSERT_FALSE(inputs.empty());
  int matched = 0;
  for (size_t i = 0; i < inputs.size(); ++i) {
    auto ids = tokenizer->encode(inputs[i], /*add_special=*/false, /*parse_special=*/false);
    EXPECT_EQ(ids, expected[i]) << "case " << i << ": \"" << inputs[i] << "\"";
    matched += ids == expected[i];
  }
  RecordProperty("matched", matched);
}

TEST_P(TokenizerVectors, DecodeGivesTheInputBack) {
  INGOT_REQUIRE_SHARED();
  if (GetParam().normalizes) GTEST_SKIP() << GetParam().name << " normalizes text";
  const Tokenizer* tokenizer = shared_tokenizer(GetParam().vocabulary);
  ASSERT_NE(tokenizer, nullptr);
  for (const std::string& input : read_vector_inputs(fixture(".gguf.inp"))) {
    auto ids = tokenizer->encode(input, false, false);
    EXPECT_EQ(tokenizer->decode(ids), input);
  }
}

INSTANTIATE_TEST_SUITE_P(
    AllVocabularies, TokenizerVectors,
    ::testing::Values(
        VectorSet{"llama-spm", "fixtures/tokenizer/ggml-vocab-llama-spm.gguf", false},
        VectorSet{"phi-3", "fixtures/tokenizer/ggml-vocab-phi-3.gguf", false},
        VectorSet{"bert-bge", "fixtures/tokenizer/ggml-vocab-bert-bge.gguf", true},
        VectorSet{"gpt-2", "fixtures/tokenizer/ggml-vocab-gpt-2.gguf", false},
        VectorSet{"deepseek-llm", "fixtures/tokenizer/ggml-vocab-deepseek-llm.gguf", false},
        VectorSet{"deepseek-coder", "fixtures/tokenizer/ggml-vocab-deepseek-coder.gguf", false},
        VectorSet{"falcon", "fixtures/tokenizer/ggml-vocab-falcon.gguf", false},
        VectorSet{"mpt", "fixtures/tokenizer/ggml-vocab-mpt.gguf", false},
        VectorSet{"refact", "fixtures/tokenizer/ggml-vocab-refact.gguf", false},
        VectorSet{"starcoder", "fixtures/tokenizer/ggml-vocab-starcoder.gguf", false},
        VectorSet{"qwen2", "models/tiny-qwen2-f16.gguf", false},
        VectorSet{"llama-bpe", "models/tiny-llama3-f16.gguf", false}),
    [](const ::testing::TestParamInfo<VectorSet>& info) {
      std::string name = info.param.name;
      for (char& c : name) {
        if (c == '-') c = '_';
      }
      return name;
    });

}  // namespace
}  // namespace ingot::tokenizer
