// ingot-synth as a user runs it: the files it writes read back with the
// shape, names, types, vocabulary and seeded values asked for.

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <fstream>
#include <string>

#include "cli/run_command.h"
#include "gguf/reader.h"
#include "support/shared_data.h"

namespace ingot::testing {
namespace {

using kernels::ElementType;

std::string synth_binary() {
  return (build_dir() / "ingot-synth").string();
}

// Runs ingot-synth with `args` plus --out and opens what it wrote.
gguf::GgufFile synthesize(const std::string& file_name, std::vector<std::string> args) {
  std::string out = (temp_dir() / file_name).string();
  args.insert(args.begin(), synth_binary());
  args.insert(args.end(), {"--out", out});
  CommandResult result = run_command(args);
  EXPECT_EQ(result.exit_code, 0) << result.err;
  auto file = gguf::GgufFile::open(out);
  if (!file.ok()) ADD_FAILURE() << file.error().describe();
  return file.ok() ? std::move(file).value() : gguf::GgufFile();
}

std::vector<float> floats_of(const gguf::TensorInfo& tensor) {
  std::vector<float> values(static_cast<size_t>(tensor.element_count()));
  std::memcpy(values.data(), tensor.data, values.size() * sizeof(float));
  return values;
}

TEST(Synth, TinyShapeHasQwen3TensorsAndMetadata) {
  gguf::GgufFile file =
      synthesize("tiny.gguf", {"--shape", "tiny", "--type", "f32", "--seed", "7"});
  const gguf::Metadata& m = file.metadata();
  EXPECT_EQ(m.architecture(), "qwen3");
  EXPECT_EQ(m.get<uint32_t>("qwen3.block_count").value(), 2u);
  EXPECT_EQ(m.get<uint32_t>("qwen3.attention.key_length").value(), 64u);
  EXPECT_EQ(m.get<float>("qwen3.rope.freq_base").value(), 1e6f);
  EXPECT_EQ(m.get<uint32_t>("general.file_type").value(), 0u);
  EXPECT_NE(m.get<std::string>("general.name").value().find("random weights"), std::string::npos);
  EXPECT_TRUE(m.get<bool>("ingot.synthetic").value());  // what serve reads, whatever the name
  EXPECT_EQ(m.get<std::vector<std::string_view>>("tokenizer.ggml.tokens").value().size(), 259u);
  const gguf::TensorInfo* q_norm = file.find_tensor("blk.1.attn_q_norm.weight");
  ASSERT_NE(q_norm, nullptr);
  EXPECT_EQ(q_norm->dims, (std::vector<int64_t>{64}));
  for (float value : floats_of(*q_norm)) EXPECT_EQ(value, 1.0f);
  const gguf::TensorInfo* q = file.find_tensor("blk.0.attn_q.weight");
  ASSERT_NE(q, nullptr);
  EXPECT_EQ(q->dims, (std::vector<int64_t>{256, 256}));
  EXPECT_EQ(file.find_tensor("blk.0.attn_k.weight")->dims, (std::vector<int64_t>{256, 128}));
  EXPECT_EQ(file.find_tensor("blk.0.ffn_down.weight")->dims, (std::vector<int64_t>{768, 256}));
  EXPECT_EQ(file.find_tensor("token_embd.weight")->dims, (std::vector<int64_t>{256, 259}));
  EXPECT_EQ(file.find_tensor("output.weight"), nullptr);  // tied to the embedding
  EXPECT_EQ(file.find_tensor("blk.0.attn_q.bias"), nullptr);
  double sum_of_squares = 0;
  std::vector<float> weights = floats_of(*q);
  for (float value : weights) sum_of_squares += value * value;
  double std_dev = std::sqrt(sum_of_squares / static_cast<double>(weights.size()));
  EXPECT_NEAR(std_dev, 0.02, 0.002);
}

TEST(Synth, Qwen2AndLlamaTinyShapes) {
  gguf::GgufFile qwen2 = synthesize("qwen2.gguf", {"--shape", "tiny-qwen2"});
  EXPECT_EQ(qwen2.metadata().architecture(), "qwen2");
  const gguf::TensorInfo* bias = qwen2.find_tensor("blk.0.attn_k.bias");
  ASSERT_NE(bias, nullptr);
  EXPECT_EQ(bias->dims, (std::vector<int64_t>{128}));
  EXPECT_EQ(bias->type, ElementType::kF32);
  EXPECT_EQ(qwen2.find_tensor("blk.0.attn_q.weight")->type, ElementType::kF16);
  EXPECT_EQ(qwen2.find_tensor("blk.0.attn_q_norm.weight"), nullptr);

  gguf::GgufFile llama = synthesize("llama.gguf", {"--shape", "tiny-llama"});
  EXPECT_EQ(llama.metadata().architecture(), "llama");
  EXPECT_EQ(llama.metadata().get<uint32_t>("llama.rope.dimension_count").value(), 64u);
  EXPECT_NE(llama.find_tensor("output.weight"), nullptr);
}

TEST(Synth, SameSeedSameBytesOtherSeedOtherBytes) {
  auto bytes_of = [](const gguf::GgufFile& file) {
    const gguf::TensorInfo* t = file.find_tensor("blk.0.ffn_up.weight");
    return std::vector<uint8_t>(t->data, t->data + t->n_bytes);
  };
  auto a = bytes_of(synthesize("a.gguf", {"--seed", "3"}));
  auto b = bytes_of(synthesize("b.gguf", {"--seed", "3"}));
  auto c = bytes_of(synthesize("c.gguf", {"--seed", "4"}));
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
}

TEST(Synth, QuantizedPresets) {
  gguf::GgufFile q8 = synthesize("q8.gguf", {"--type", "q8_0"});
  EXPECT_EQ(q8.find_tensor("blk.0.attn_q.weight")->type, ElementType::kQ8_0);
  EXPECT_EQ(q8.find_tensor("blk.0.attn_norm.weight")->type, ElementType::kF32);
  EXPECT_EQ(q8.metadata().get<uint32_t>("general.file_type").value(), 7u);

  gguf::GgufFile q4 = synthesize("q4.gguf", {"--type", "q4_0"});
  EXPECT_EQ(q4.find_tensor("blk.0.ffn_gate.weight")->type, ElementType::kQ4_0);
  EXPECT_EQ(q4.find_tensor("token_embd.weight")->type, ElementType::kQ6_K);

  // Q4_K_M: Q6_K for the tied embedding and for attn_v / ffn_down of the
  // last layer (llama.cpp's use_more_bits over 2 layers), Q4_K elsewhere.
  gguf::GgufFile km = synthesize("km.gguf", {"--type", "q4_k_m"});
  EXPECT_EQ(km.find_tensor("token_embd.weight")->type, ElementType::kQ6_K);
  EXPECT_EQ(km.find_tensor("blk.0.attn_v.weight")->type, ElementType::kQ4_K);
  EXPECT_EQ(km.find_tensor("blk.1.attn_v.weight")->type, ElementType::kQ6_K);
  EXPECT_EQ(km.find_tensor("blk.1.ffn_down.weight")->type, ElementType::kQ6_K);
  EXPECT_EQ(km.find_tensor("blk.0.attn_q.weight")->type, ElementType::kQ4_K);
  EXPECT_EQ(km.metadata().get<uint32_t>("general.file_type").value(), 15u);
}

TEST(Synth, VocabularyFromAnotherGguf) {
  INGOT_REQUIRE_SHARED();
  std::string source = shared_path("models/stories260K.gguf").string();
  gguf::GgufFile file = synthesize("vocab.gguf", {"--vocab-from", source});
  auto original = gguf::GgufFile::open(source);
  ASSERT_TRUE(original.ok());
  auto tokens = file.metadata().get<std::vector<std::string_view>>("tokenizer.ggml.tokens");
  EXPECT_EQ(
      tokens.value(),
      original->metadata().get<std::vector<std::string_view>>("tokenizer.ggml.tokens").value());
  EXPECT_EQ(file.metadata().get<std::string>("tokenizer.ggml.model").value(), "llama");
  EXPECT_EQ(file.metadata().get<uint32_t>("tokenizer.ggml.bos_token_id").value(), 1u);
  EXPECT_EQ(file.find_tensor("token_embd.weight")->dims, (std::vector<int64_t>{256, 512}));
}

TEST(Synth, HuggingFaceTokenizer) {
  std::filesystem::path dir = temp_dir();
  std::ofstream(dir / "tokenizer.json") << R"({
    "added_tokens": [
      {"id": 5, "content": "<|im_end|>", "special": true},
      {"id": 6, "content": "<think>", "special": false}
    ],
    "model": {"type": "BPE", "vocab": {"a": 0, "b": 1, "ab": 2, "Ġ": 3},
              "merges": ["a b", ["Ġ", "a"]]}
  })";
  std::ofstream(dir / "tokenizer_config.json") << R"({
    "bos_token": null, "eos_token": "<|im_end|>", "pad_token": {"content": "<|im_end|>"},
    "add_bos_token": false, "chat_template": "{{ messages }}"
  })";
  gguf::GgufFile file =
      synthesize("hf.gguf", {"--hf-tokenizer", (dir / "tokenizer.json").string(), "--hf-config",
                             (dir / "tokenizer_config.json").string()});
  const gguf::Metadata& m = file.metadata();
  EXPECT_EQ(
      m.get<std::vector<std::string_view>>("tokenizer.ggml.tokens").value(),
      (std::vector<std::string_view>{"a", "b", "ab", "Ġ", "[PAD4]", "<|im_end|>", "<think>"}));
  EXPECT_EQ(m.get<std::vector<int32_t>>("tokenizer.ggml.token_type").value(),
            (std::vector<int32_t>{1, 1, 1, 1, 5, 3, 4}));
  EXPECT_EQ(m.get<std::vector<std::string_view>>("tokenizer.ggml.merges").value(),
            (std::vector<std::string_view>{"a b", "Ġ a"}));
  EXPECT_EQ(m.get<std::string>("tokenizer.ggml.model").value(), "gpt2");
  EXPECT_EQ(m.get<std::string>("tokenizer.ggml.pre").value(), "qwen2");
  EXPECT_EQ(m.get<uint32_t>("tokenizer.ggml.eos_token_id").value(), 5u);
  EXPECT_EQ(m.get<uint32_t>("tokenizer.ggml.padding_token_id").value(), 5u);
  EXPECT_FALSE(m.has("tokenizer.ggml.bos_token_id"));
  EXPECT_EQ(m.get<std::string>("tokenizer.chat_template").value(), "{{ messages }}");
  EXPECT_EQ(file.find_tensor("token_embd.weight")->dims, (std::vector<int64_t>{256, 7}));
}

TEST(Synth, BadInputsExitOneWithAReason) {
  std::string out = (temp_dir() / "never.gguf").string();
  CommandResult shape = run_command({synth_binary(), "--shape", "huge", "--out", out});
  EXPECT_EQ(shape.exit_code, 1);
  EXPECT_NE(shape.err.find("unknown shape 'huge'"), std::string::npos) << shape.err;
  std::string bad_json = (temp_dir() / "bad.json").string();
  std::ofstream(bad_json) << "{ not json";
  CommandResult json = run_command({synth_binary(), "--hf-tokenizer", bad_json, "--out", out});
  EXPECT_EQ(json.exit_code, 1);
  EXPECT_NE(json.err.find("not valid JSON"), std::string::npos) << json.err;
  std::ofstream(bad_json, std::ios::trunc) << R"({"model": 5})";
  CommandResult shaped = run_command({synth_binary(), "--hf-tokenizer", bad_json, "--out", out});
  EXPECT_EQ(shaped.exit_code, 1);
  EXPECT_FALSE(std::filesystem::exists(out));
}

}  // namespace
}  // namespace ingot::testing
