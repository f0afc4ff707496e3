// The reader on every GGUF under ../shared: each parses, and a few facts of
// each (architecture, tensor count, vocabulary) match what the file holds.

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "gguf/reader.h"
#include "support/shared_data.h"

namespace ingot::gguf {
namespace {

using kernels::ElementType;

struct KnownFacts {
  std::string path;
  std::string architecture;
  size_t tensor_count;
  size_t vocabulary_size;
  std::string tokenizer_model;
  uint32_t block_count;
};

const std::vector<KnownFacts>& known_files() {
  static const std::vector<KnownFacts> files = {
      {"models/stories260K.gguf", "llama", 48, 512, "llama", 5},
      {"models/tiny-qwen2-f16.gguf", "qwen2", 27, 151669, "gpt2", 2},
      {"models/tiny-qwen3-f16.gguf", "qwen3", 25, 151669, "gpt2", 2},
      {"models/tiny-llama3-f16.gguf", "llama", 21, 128256, "gpt2", 2},
      {"models/small-llama-f16.gguf", "llama", 21, 512, "llama", 2},
      {"models/small-llama-q8_0.gguf", "llama", 21, 512, "llama", 2},
      {"models/small-llama-q4_0.gguf", "llama", 21, 512, "llama", 2},
      {"models/small-llama-q4_1.gguf", "llama", 21, 512, "llama", 2},
      {"models/small-llama-q5_0.gguf", "llama", 21, 512, "llama", 2},
      {"models/small-llama-q5_1.gguf", "llama", 21, 512, "llama", 2},
      {"models/small-llama-q2_k.gguf", "llama", 21, 512, "llama", 2},
      {"models/small-llama-q3_k_m.gguf", "llama", 21, 512, "llama", 2},
      {"models/small-llama-q4_k_m.gguf", "llama", 21, 512, "llama", 2},
      {"models/small-llama-q5_k_m.gguf", "llama", 21, 512, "llama", 2},
      {"models/small-llama-q6_k.gguf", "llama", 21, 512, "llama", 2},
      {"fixtures/tokenizer/ggml-vocab-baichuan.gguf", "baichuan", 0, 64000, "llama", 32},
      {"fixtures/tokenizer/ggml-vocab-bert-bge.gguf", "bert", 0, 30522, "bert", 12},
      {"fixtures/tokenizer/ggml-vocab-deepseek-coder.gguf", "llama", 0, 32256, "gpt2", 32},
      {"fixtures/tokenizer/ggml-vocab-deepseek-llm.gguf", "llama", 0, 102400, "gpt2", 30},
      {"fixtures/tokenizer/ggml-vocab-falcon.gguf", "falcon", 0, 65024, "gpt2", 32},
      {"fixtures/tokenizer/ggml-vocab-gpt-2.gguf", "gpt2", 0, 50257, "gpt2", 12},
      {"fixtures/tokenizer/ggml-vocab-gpt-neox.gguf", "gptneox", 0, 50432, "gpt2", 44},
      {"fixtures/tokenizer/ggml-vocab-llama-spm.gguf", "llama", 0, 32000, "llama", 32},
      {"fixtures/tokenizer/ggml-vocab-mpt.gguf", "mpt", 0, 50432, "gpt2", 32},
      {"fixtures/tokenizer/ggml-vocab-phi-3.gguf", "phi3", 0, 32064, "llama", 32},
      {"fixtures/tokenizer/ggml-vocab-refact.gguf", "refact", 0, 49216, "gpt2", 32},
      {"fixtures/tokenizer/ggml-vocab-starcoder.gguf", "starcoder2", 0, 49152, "gpt2", 30},
  };
  return files;
}

GgufFile open_or_fail(const std::filesystem::path& path) {
  auto file = GgufFile::open(path.string());
  if (!file.ok()) ADD_FAILURE() << file.error().describe();
  return file.ok() ? std::move(file).value() : GgufFile();
}

TEST(SharedModels, EveryFileHasItsKnownFacts) {
  INGOT_REQUIRE_SHARED();
  for (const KnownFacts& facts : known_files()) {
    SCOPED_TRACE(facts.path);
    GgufFile file = open_or_fail(testing::shared_path(facts.path));
    const Metadata& metadata = file.metadata();
    EXPECT_EQ(file.version(), 3u);
    EXPECT_EQ(metadata.architecture(), facts.architecture);
    EXPECT_EQ(file.tensors().size(), facts.tensor_count);
    auto tokens = metadata.get<std::vector<std::string_view>>("tokenizer.ggml.tokens");
    ASSERT_TRUE(tokens.ok()) << tokens.error().describe();
    EXPECT_EQ(tokens->size(), facts.vocabulary_size);
    EXPECT_EQ(metadata.get_or<std::string>("tokenizer.ggml.model", ""), facts.tokenizer_model);
    EXPECT_EQ(metadata.get_or<uint32_t>(metadata.arch_key("block_count"), 0), facts.block_count);
  }
}

TEST(SharedModels, EveryGgufUnderSharedParses) {
  INGOT_REQUIRE_SHARED();
  size_t parsed = 0;
  for (const char* folder : {"models", "fixtures/tokenizer"}) {
    for (const auto& entry : std::filesystem::directory_iterator(testing::shared_path(folder))) {
      if (entry.path().extension() != ".gguf") continue;
      SCOPED_TRACE(entry.path().string());
      auto file = GgufFile::open(entry.path().string());
      EXPECT_TRUE(file.ok()) << file.error().describe();
      ++parsed;
    }
  }
  EXPECT_GE(parsed, known_files().size());
}

TEST(SharedModels, Stories260KTensorTable) {
  INGOT_REQUIRE_SHARED();
  GgufFile file = open_or_fail(testing::shared_path("models/stories260K.gguf"));
  const TensorInfo* embedding = file.find_tensor("token_embd.weight");
  ASSERT_NE(embedding, nullptr);
  EXPECT_EQ(embedding->dims, (std::vector<int64_t>{64, 512}));
  EXPECT_EQ(embedding->type, ElementType::kF32);
  EXPECT_EQ(embedding->n_bytes, 64u * 512u * 4u);
  EXPECT_EQ(embedding->element_count(), 64 * 512);
  EXPECT_EQ(embedding->data, file.tensors()[0].data);
  EXPECT_EQ(file.alignment(), 32u);
  EXPECT_EQ(file.data_offset() % 32, 0u);
  EXPECT_EQ(file.find_tensor("no.such.tensor"), nullptr);
  EXPECT_EQ(file.metadata().get<uint32_t>("llama.embedding_length").value(), 64u);
  EXPECT_FLOAT_EQ(file.metadata().get<float>("llama.attention.layer_norm_rms_epsilon").value(),
                  1e-5f);
  // The last tensor ends inside the file, at most one alignment short of its end.
  const TensorInfo& last = file.tensors().back();
  EXPECT_LE(file.data_offset() + last.offset + last.n_bytes, file.file_size());
}

TEST(SharedModels, TinyQwen3Facts) {
  INGOT_REQUIRE_SHARED();
  GgufFile file = open_or_fail(testing::shared_path("models/tiny-qwen3-f16.gguf"));
  const Metadata& metadata = file.metadata();
  EXPECT_EQ(metadata.get<uint32_t>("qwen3.attention.key_length").value(), 16u);
  EXPECT_EQ(metadata.get<double>("qwen3.rope.freq_base").value(), 1e6);
  EXPECT_EQ(metadata.get<uint32_t>("tokenizer.ggml.eos_token_id").value(), 151645u);
  EXPECT_FALSE(metadata.get<bool>("tokenizer.ggml.add_bos_token").value());
  EXPECT_TRUE(metadata.has("tokenizer.chat_template"));
  auto merges = metadata.get<std::vector<std::string_view>>("tokenizer.ggml.merges");
  ASSERT_TRUE(merges.ok());
  EXPECT_EQ(merges->size(), 151387u);
  EXPECT_EQ((*merges)[0], "Ġ Ġ");
  auto types = metadata.get<std::vector<int32_t>>("tokenizer.ggml.token_type");
  ASSERT_TRUE(types.ok());
  EXPECT_EQ(types->size(), 151669u);
  const TensorInfo* q_norm = file.find_tensor("blk.0.attn_q_norm.weight");
  ASSERT_NE(q_norm, nullptr);
  EXPECT_EQ(q_norm->dims, (std::vector<int64_t>{16}));
  EXPECT_EQ(file.find_tensor("blk.1.attn_q.weight")->type, ElementType::kF16);
}

TEST(SharedModels, QuantizedTensorTypes) {
  INGOT_REQUIRE_SHARED();
  GgufFile q4k = open_or_fail(testing::shared_path("models/small-llama-q4_k_m.gguf"));
  size_t q4_k_tensors = 0;
  for (const TensorInfo& tensor : q4k.tensors()) q4_k_tensors += tensor.type == ElementType::kQ4_K;
  EXPECT_GT(q4_k_tensors, 0u);
  GgufFile q8 = open_or_fail(testing::shared_path("models/small-llama-q8_0.gguf"));
  const TensorInfo* q = q8.find_tensor("blk.0.attn_q.weight");
  ASSERT_NE(q, nullptr);
  EXPECT_EQ(q->type, ElementType::kQ8_0);
  EXPECT_EQ(q->n_bytes, 256u * 256u / 32u * 34u);
}

}  // namespace
}  // namespace ingot::gguf
