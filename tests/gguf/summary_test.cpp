// FileSummary: the facts read from metadata and the tensor table, with
// llama.cpp's defaults where a key is absent.

#include "gguf/summary.h"

#include <gtest/gtest.h>

#include "gguf/writer.h"

namespace ingot::gguf {
namespace {

using kernels::ElementType;

FileSummary summary_of(const GgufWriter& writer) {
  auto bytes = writer.to_bytes();
  EXPECT_TRUE(bytes.ok());
  // The summary copies what it keeps, so the bytes may go after this.
  auto file = GgufFile::parse(*bytes);
  EXPECT_TRUE(file.ok()) << file.error().describe();
  return summarize(*file);
}

GgufWriter llama_without_optional_keys() {
  GgufWriter writer;
  writer.set_string("general.architecture", "llama");
  writer.set_u32("llama.block_count", 4);
  writer.set_u32("llama.embedding_length", 512);
  writer.set_u32("llama.attention.head_count", 8);
  std::vector<std::string> tokens = {"<unk>", "<s>", "</s>"};
  writer.set_strings("tokenizer.ggml.tokens", tokens);
  writer.set_u32("tokenizer.ggml.bos_token_id", 1);
  writer.set_u32("tokenizer.ggml.eos_token_id", 7);               // past the vocabulary
  writer.set_u32("tokenizer.ggml.padding_token_id", 0xFFFFFFFF);  // llama.cpp's "none"
  return writer;
}

TEST(Summary, DefaultsFollowLlamaCpp) {
  FileSummary s = summary_of(llama_without_optional_keys());
  EXPECT_EQ(s.architecture, "llama");
  EXPECT_EQ(s.head_count_kv, 8u);
  EXPECT_EQ(s.key_length, 64u);
  EXPECT_EQ(s.value_length, 64u);
  EXPECT_EQ(s.rope_freq_base, 10000.0);
  EXPECT_EQ(s.rope_scaling_type, "none");
  EXPECT_FALSE(s.rope_scaling_factor.has_value());
  EXPECT_FALSE(s.context_length.has_value());
  EXPECT_FALSE(s.has_chat_template);
  EXPECT_EQ(s.vocabulary_size, 3u);
}

TEST(Summary, SpecialTokensSkipNoneAndFlagIdsPastTheVocabulary) {
  FileSummary s = summary_of(llama_without_optional_keys());
  ASSERT_EQ(s.special_tokens.size(), 2u);
  EXPECT_EQ(s.special_tokens[0].role, "bos");
  EXPECT_EQ(s.special_tokens[0].text, "<s>");
  EXPECT_EQ(s.special_tokens[1].role, "eos");
  EXPECT_EQ(s.special_tokens[1].id, 7u);
  EXPECT_FALSE(s.special_tokens[1].text.has_value());
}

TEST(Summary, RopeScalingAndStoredHeadWidths) {
  GgufWriter writer = llama_without_optional_keys();
  writer.set_u32("llama.attention.head_count_kv", 2);
  writer.set_u32("llama.attention.key_length", 128);
  writer.set_string("llama.rope.scaling.type", "yarn");
  writer.set_f32("llama.rope.scaling.factor", 4.0f);
  writer.set_f32("llama.rope.freq_base", 500000.0f);
  FileSummary s = summary_of(writer);
  EXPECT_EQ(s.head_count_kv, 2u);
  EXPECT_EQ(s.key_length, 128u);
  EXPECT_EQ(s.value_length, 128u);
  EXPECT_EQ(s.rope_scaling_type, "yarn");
  EXPECT_EQ(s.rope_scaling_factor, 4.0);
  EXPECT_EQ(s.rope_freq_base, 500000.0);
}

TEST(Summary, KvCacheBytes) {
  FileSummary s = summary_of(llama_without_optional_keys());
  // 4 layers x 8 KV heads x (64 + 64) x 2 bytes per position and sequence.
  EXPECT_EQ(s.kv_cache_bytes(1, 1), 4u * 8u * 128u * 2u);
  EXPECT_EQ(s.kv_cache_bytes(4096, 3), 4u * 8u * 128u * 2u * 4096u * 3u);
  EXPECT_FALSE(s.kv_cache_bytes(uint64_t{1} << 60, uint64_t{1} << 20).has_value());
  FileSummary empty;
  EXPECT_FALSE(empty.kv_cache_bytes(1, 1).has_value());
}

TEST(Summary, TensorTypeHistogram) {
  GgufWriter writer = llama_without_optional_keys();
  ASSERT_TRUE(writer.add_tensor("a", {32, 2}, ElementType::kQ8_0, std::vector<uint8_t>(68)).ok());
  ASSERT_TRUE(writer.add_tensor("b", {32}, ElementType::kQ8_0, std::vector<uint8_t>(34)).ok());
  ASSERT_TRUE(writer.add_tensor("c", {3}, ElementType::kF32, std::vector<uint8_t>(12)).ok());
  FileSummary s = summary_of(writer);
  EXPECT_EQ(s.parameter_count, 99u);
  EXPECT_EQ(s.weight_bytes, 114u);
  ASSERT_EQ(s.tensor_types.size(), 2u);
  const TensorTypeCount& q8 = s.tensor_types.at(ElementType::kQ8_0);
  EXPECT_EQ(q8.tensors, 2u);
  EXPECT_EQ(q8.elements, 96u);
  EXPECT_EQ(q8.bytes, 102u);
  EXPECT_EQ(q8.example, "a");
}

}  // namespace
}  // namespace ingot::gguf
