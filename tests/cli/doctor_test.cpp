// `ingot doctor` on the shared models: the facts it prints, its verdict,
// and its exit code and one-line reason for a file that is not a GGUF.

#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "cli/run_command.h"
#include "support/shared_data.h"
#include "support/synthetic_model.h"

namespace ingot::testing {
namespace {

using nlohmann::json;

json doctor_json(const std::string& model, std::vector<std::string> extra = {}) {
  std::vector<std::string> argv = {ingot_binary(), "doctor", "--json", "--model",
                                   shared_path(model).string()};
  argv.insert(argv.end(), extra.begin(), extra.end());
  CommandResult result = run_command(argv);
  EXPECT_TRUE(result.exit_code == 0 || result.exit_code == 2) << result.err;
  EXPECT_EQ(result.err, "");
  return json::parse(result.out, nullptr, /*allow_exceptions=*/false);
}

TEST(Doctor, TinyQwen3Facts) {
  INGOT_REQUIRE_SHARED();
  json facts = doctor_json("models/tiny-qwen3-f16.gguf", {"--ctx", "1024", "--parallel", "2"});
  ASSERT_TRUE(facts.is_object());
  EXPECT_EQ(facts["architecture"], "qwen3");
  EXPECT_EQ(facts["parameters"], 9737760);
  EXPECT_EQ(facts["block_count"], 2);
  EXPECT_EQ(facts["embedding_length"], 32);
  EXPECT_EQ(facts["head_count"], 4);
  EXPECT_EQ(facts["head_count_kv"], 2);
  EXPECT_EQ(facts["head_dim"], 16);
  EXPECT_EQ(facts["context_length"], 32768);
  EXPECT_EQ(facts["rope"]["freq_base"], 1e6);
  EXPECT_EQ(facts["rope"]["scaling_type"], "none");
  EXPECT_EQ(facts["vocabulary"]["type"], "gpt2");
  EXPECT_EQ(facts["vocabulary"]["pre"], "qwen2");
  EXPECT_EQ(facts["vocabulary"]["size"], 151669);
  EXPECT_EQ(facts["special_tokens"]["eos"]["id"], 151645);
  EXPECT_EQ(facts["special_tokens"]["eos"]["text"], "<|im_end|>");
  EXPECT_EQ(facts["special_tokens"]["pad"]["text"], "<|endoftext|>");
  EXPECT_FALSE(facts["special_tokens"].contains("bos"));
  EXPECT_EQ(facts["chat_template"], true);
  EXPECT_EQ(facts["tool_calls"]["family"], "hermes");
  EXPECT_EQ(facts["tool_calls"]["template_renders_tools"], true);
  EXPECT_EQ(facts["tensor_types"]["f16"]["tensors"], 16);
  EXPECT_EQ(facts["tensor_types"]["f32"]["tensors"], 9);
  // 2 layers x 2 KV heads x (16 + 16) dims x 2 bytes, per position and sequence.
  EXPECT_EQ(facts["memory"]["kv_cache_bytes"], 2 * 2 * 32 * 2 * 1024 * 2);
  EXPECT_EQ(facts["memory"]["parallel"], 2);
  EXPECT_EQ(facts["runnable"], true);
}

TEST(Doctor, PrintsTheToolCallFamily) {
  INGOT_REQUIRE_SHARED();
  CommandResult result = run_command(
      {ingot_binary(), "doctor", "--model", shared_path("models/stories260K.gguf").string()});
  EXPECT_EQ(result.out.find("tool calls"), std::string::npos) << "no template, no family";
  result = run_command(
      {ingot_binary(), "doctor", "--model", shared_path("models/tiny-qwen3-f16.gguf").string()});
  EXPECT_NE(result.out.find("tool calls     hermes"), std::string::npos) << result.out;
}

// INGOT_ISA or --isa choose the kernels at or below what the CPU has, and
// doctor names the ones in use; a path the CPU lacks is refused.
TEST(Doctor, NamesTheKernelsInUseAsIngotIsaOrIsaChooseThem) {
  INGOT_REQUIRE_SHARED();
  const std::string model = shared_path("models/stories260K.gguf").string();
  json best = doctor_json("models/stories260K.gguf");
  EXPECT_TRUE(best["kernels"] == "avx512" || best["kernels"] == "avx2" ||
              best["kernels"] == "scalar")
      << best["kernels"];
  CommandResult by_env = run_command(
      {"/usr/bin/env", "INGOT_ISA=scalar", ingot_binary(), "doctor", "--json", "--model", model});
  EXPECT_EQ(json::parse(by_env.out, nullptr, false)["kernels"], "scalar") << by_env.err;
  CommandResult by_flag =
      run_command({ingot_binary(), "doctor", "--json", "--isa", "scalar", "--model", model});
  EXPECT_EQ(json::parse(by_flag.out, nullptr, false)["kernels"], "scalar") << by_flag.err;
  CommandResult refused =
      run_command({ingot_binary(), "doctor", "--isa", "neon", "--model", model});
  EXPECT_NE(refused.exit_code, 0);
  EXPECT_NE(refused.err.find("no 'neon' kernels"), std::string::npos) << refused.err;
}

// Q8_0 stores 32 values in 34 bytes where F16 takes 64; Q4_0 in 18.
TEST(Doctor, AQuantizedCacheIsCountedAtItsTypesSize) {
  INGOT_REQUIRE_SHARED();
  const std::string model = "models/small-llama-f16.gguf";
  json f16 = doctor_json(model, {"--ctx", "1024"});
  json q8_0 =
      doctor_json(model, {"--ctx", "1024", "--cache-type-k", "q8_0", "--cache-type-v", "q8_0"});
  json mixed = doctor_json(model, {"--ctx", "1024", "--cache-type-k", "q4_0"});
  const uint64_t bytes = f16["memory"]["kv_cache_bytes"];
  EXPECT_EQ(f16["memory"]["kv_cache_type"], "F16");
  EXPECT_EQ(q8_0["memory"]["kv_cache_bytes"], bytes / 64 * 34);
  EXPECT_EQ(q8_0["memory"]["kv_cache_type"], "Q8_0");
  EXPECT_EQ(mixed["memory"]["kv_cache_bytes"], bytes / 2 / 64 * 18 + bytes / 2);
}

TEST(Doctor, HybridModelCountsKeysForItsAttentionLayersAndAStateForTheRest) {
  INGOT_REQUIRE_SHARED();
  const std::string model = synthetic_model("tiny-qwen35");
  CommandResult result = run_command(
      {ingot_binary(), "doctor", "--json", "--model", model, "--ctx", "1024", "--parallel", "2"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  json memory = json::parse(result.out)["memory"];
  EXPECT_EQ(memory["attention_layers"], 1);
  EXPECT_EQ(memory["recurrent_layers"], 3);
  // One attention layer: 2 KV heads of 64, keys and values in F16.
  EXPECT_EQ(memory["kv_cache_bytes"], 1 * 2 * 64 * 2 * 2 * 1024 * 2);
  // Per layer and sequence: a 3-input window of 512 channels and 4 states of 64 x 64.
  EXPECT_EQ(memory["recurrent_state_bytes"], 3 * (3 * 512 + 4 * 64 * 64) * 4 * 2);
  EXPECT_EQ(memory["experts"], 0);
}

TEST(Doctor, PredictionBlockIsCountedWhenMtpWouldRunIt) {
  INGOT_REQUIRE_SHARED();
  const std::string model = synthetic_model("tiny-qwen35");
  const std::vector<std::string> base = {ingot_binary(), "doctor", "--json",     "--model", model,
                                         "--ctx",        "1024",   "--parallel", "2"};
  CommandResult plain = run_command(base);
  std::vector<std::string> with_mtp = base;
  with_mtp.insert(with_mtp.end(), {"--mtp", "--draft-max", "2"});
  CommandResult drafting = run_command(with_mtp);
  ASSERT_EQ(plain.exit_code, 0) << plain.err;
  ASSERT_EQ(drafting.exit_code, 0) << drafting.err;
  json without = json::parse(plain.out)["memory"], with = json::parse(drafting.out)["memory"];
  EXPECT_EQ(without["prediction_layers"], 1);
  // The block's attention layer: 2 KV heads of 64, keys and values in F16.
  EXPECT_EQ(with["prediction_kv_cache_bytes"], 2 * 64 * 2 * 2 * 1024 * 2);
  // A checkpoint per draft: each is every sequence's recurrent state.
  EXPECT_EQ(with["checkpoint_bytes"], 2 * with["recurrent_state_bytes"].get<uint64_t>());
  EXPECT_EQ(with["total_bytes"].get<uint64_t>(),
            without["total_bytes"].get<uint64_t>() +
                with["prediction_kv_cache_bytes"].get<uint64_t>() +
                with["checkpoint_bytes"].get<uint64_t>());
}

TEST(Doctor, MixtureOfExpertsModelSaysHowManyExpertsATokenRuns) {
  INGOT_REQUIRE_SHARED();
  const std::string model = synthetic_model("tiny-qwen35moe");
  CommandResult result = run_command({ingot_binary(), "doctor", "--json", "--model", model});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  json facts = json::parse(result.out);
  EXPECT_EQ(facts["architecture"], "qwen35moe");
  EXPECT_EQ(facts["memory"]["experts"], 8);
  EXPECT_EQ(facts["memory"]["experts_used"], 2);
  EXPECT_EQ(facts["memory"]["recurrent_layers"], 3);
}

TEST(Doctor, Gemma4CountsKeysOnlyForLayersThatKeepThem) {
  INGOT_REQUIRE_SHARED();
  const std::string model = synthetic_model("tiny-gemma4");
  CommandResult result = run_command(
      {ingot_binary(), "doctor", "--json", "--model", model, "--ctx", "1024", "--swa-full"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  json memory = json::parse(result.out)["memory"];
  EXPECT_EQ(memory["shared_kv_layers"], 2);
  // Layers 0-3 keep their own: two sliding (head size 64), two global (128),
  // 2 KV heads, keys and values in F16.
  EXPECT_EQ(memory["kv_cache_bytes"], (2 * 64 + 2 * 128) * 2 * 2 * 2 * 1024);
}

// A per-layer head_count_kv: each layer's keys and values at its own count.
TEST(Doctor, Gemma4CountsEachLayersOwnKvHeads) {
  INGOT_REQUIRE_SHARED();
  const std::string model = synthetic_model("tiny-gemma4moe", "f16");
  CommandResult result = run_command(
      {ingot_binary(), "doctor", "--json", "--model", model, "--ctx", "1024", "--swa-full"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  json memory = json::parse(result.out)["memory"];
  // Two sliding layers (2 KV heads of 64) and two global ones (1 of 128).
  EXPECT_EQ(memory["kv_cache_bytes"], (2 * (2 * 64) + 2 * (1 * 128)) * 2 * 2 * 1024);
  CommandResult text = run_command({ingot_binary(), "doctor", "--model", model});
  EXPECT_NE(text.out.find("KV heads 1-2 by layer"), std::string::npos) << text.out;
}

TEST(Doctor, DescribesADiffusionModelsCanvasAndSampler) {
  INGOT_REQUIRE_SHARED();
  const std::string model = synthetic_model("tiny-diffusion-gemma", "f16");
  CommandResult result = run_command({ingot_binary(), "doctor", "--model", model});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_NE(result.out.find("denoised a canvas of 32 tokens at a time (up to 48 steps at "
                            "temperatures 0.8 to 0.4, entropy bound 0.1)"),
            std::string::npos)
      << result.out;
}

// Sliding-window layers keep their windows alone, as serve plans them:
// each slot's window and a block on each side, twice, and the batch's
// blocks; --swa-full counts every position.
TEST(Doctor, SlidingLayersCountTheirWindowsUnlessSwaFull) {
  INGOT_REQUIRE_SHARED();
  const std::string model = synthetic_model("tiny-gpt-oss", "f16");
  auto memory = [&](std::vector<std::string> extra) {
    std::vector<std::string> args = {ingot_binary(), "doctor", "--json",     "--model", model,
                                     "--ctx",        "1024",   "--parallel", "2"};
    args.insert(args.end(), extra.begin(), extra.end());
    CommandResult result = run_command(args);
    EXPECT_EQ(result.exit_code, 0) << result.err;
    return json::parse(result.out)["memory"];
  };
  // Four layers of 2 KV heads of 64, keys and values in F16; layers 0 and 2
  // slide over 8 positions: (8 / 32 + 2) blocks, twice, for each of 2
  // slots, 512 / 32 for the batch, one more per slot.
  const int64_t per_cell = 2 * 64 * 2 * 2;
  const int64_t window_cells = (2 * 3 * 2 + 16 + 2) * 32;
  json trimmed = memory({});
  EXPECT_EQ(trimmed["sliding_layers"], 2);
  EXPECT_EQ(trimmed["sliding_window"], 8);
  EXPECT_EQ(trimmed["kv_cache_bytes"], 2 * per_cell * 2048 + 2 * per_cell * window_cells);
  json full = memory({"--swa-full"});
  EXPECT_EQ(full["kv_cache_bytes"], 4 * per_cell * 2048);
}

TEST(Doctor, Stories260KFacts) {
  INGOT_REQUIRE_SHARED();
  json facts = doctor_json("models/stories260K.gguf");
  ASSERT_TRUE(facts.is_object());
  EXPECT_EQ(facts["architecture"], "llama");
  EXPECT_EQ(facts["parameters"], 292800);
  EXPECT_EQ(facts["block_count"], 5);
  EXPECT_EQ(facts["head_count"], 8);
  EXPECT_EQ(facts["head_count_kv"], 4);
  EXPECT_EQ(facts["head_dim"], 8);
  EXPECT_EQ(facts["context_length"], 2048);
  EXPECT_EQ(facts["vocabulary"]["type"], "llama");
  EXPECT_EQ(facts["vocabulary"]["size"], 512);
  EXPECT_EQ(facts["special_tokens"]["bos"]["text"], "<s>");
  EXPECT_EQ(facts["special_tokens"]["eos"]["id"], 2);
  EXPECT_EQ(facts["chat_template"], false);
  EXPECT_EQ(facts["tensor_types"].size(), 1u);
  EXPECT_EQ(facts["tensor_types"]["f32"]["bytes"], 292800 * 4);
  EXPECT_EQ(facts["memory"]["context"], 2048);
  EXPECT_EQ(facts["runnable"], true);
}

TEST(Doctor, EveryRunnableSharedModel) {
  INGOT_REQUIRE_SHARED();
  struct Expected {
    std::string model, architecture, tensor_type;
    int vocabulary;
  };
  for (const Expected& e : std::vector<Expected>{
           {"models/tiny-qwen2-f16.gguf", "qwen2", "f16", 151669},
           {"models/tiny-llama3-f16.gguf", "llama", "f16", 128256},
           {"models/small-llama-q8_0.gguf", "llama", "q8_0", 512},
           {"models/small-llama-q4_k_m.gguf", "llama", "q4_K", 512},
           {"models/small-llama-q2_k.gguf", "llama", "q2_K", 512},
       }) {
    SCOPED_TRACE(e.model);
    json facts = doctor_json(e.model);
    ASSERT_TRUE(facts.is_object());
    EXPECT_EQ(facts["architecture"], e.architecture);
    EXPECT_TRUE(facts["tensor_types"].contains(e.tensor_type));
    EXPECT_EQ(facts["vocabulary"]["size"], e.vocabulary);
    EXPECT_EQ(facts["runnable"], true) << facts["problems"].dump();
  }
}

TEST(Doctor, VocabularyOnlyFileOfAnotherArchitectureIsNotRunnable) {
  INGOT_REQUIRE_SHARED();
  CommandResult result =
      run_command({ingot_binary(), "doctor", "--model",
                   shared_path("fixtures/tokenizer/ggml-vocab-falcon.gguf").string()});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.out.find("architecture 'falcon' is not supported"), std::string::npos)
      << result.out;
  EXPECT_NE(result.out.find("no tensors"), std::string::npos) << result.out;
}

TEST(Doctor, TextOutputStatesTheVerdict) {
  INGOT_REQUIRE_SHARED();
  CommandResult result = run_command(
      {ingot_binary(), "doctor", "--model", shared_path("models/tiny-llama3-f16.gguf").string()});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_NE(result.out.find("ingot can run this model"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("128256 tokens"), std::string::npos) << result.out;
}

TEST(Doctor, IncompleteMetadataIsNotRunnable) {
  INGOT_REQUIRE_SHARED();
  // A llama vocabulary file: a supported architecture, but no tensors.
  CommandResult result =
      run_command({ingot_binary(), "doctor", "--json", "--model",
                   shared_path("fixtures/tokenizer/ggml-vocab-llama-spm.gguf").string()});
  EXPECT_EQ(result.exit_code, 2);
  json facts = json::parse(result.out, nullptr, false);
  ASSERT_TRUE(facts.is_object()) << result.out;
  EXPECT_EQ(facts["runnable"], false);
  EXPECT_EQ(facts["architecture"], "llama");
  EXPECT_EQ(facts["vocabulary"]["size"], 32000);
  EXPECT_FALSE(facts["problems"].empty());
}

TEST(Doctor, InvalidFileExitsOneWithAOneLineReason) {
  std::string path = (temp_dir() / "not-a-model.gguf").string();
  std::ofstream(path) << "this is not a model";
  CommandResult result = run_command({ingot_binary(), "doctor", "--model", path});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.out, "");
  EXPECT_NE(result.err.find("not a GGUF file"), std::string::npos) << result.err;
  EXPECT_EQ(result.err.find('\n'), result.err.size() - 1) << result.err;
}

TEST(Doctor, MissingFileExitsOne) {
  CommandResult result =
      run_command({ingot_binary(), "doctor", "--model", (temp_dir() / "absent.gguf").string()});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_NE(result.err.find("no such file"), std::string::npos) << result.err;
}

// What serve answers with each kind of file: a chat model, an embedding
// encoder (whose positions are learned, not rotated) and a reranker.
TEST(Doctor, SaysWhatServeAnswersWithTheFile) {
  INGOT_REQUIRE_SHARED();
  auto serves = [](const std::string& shape) {
    CommandResult result =
        run_command({ingot_binary(), "doctor", "--json", "--model", synthetic_model(shape, "f16")});
    EXPECT_EQ(result.exit_code, 0) << result.err;
    return json::parse(result.out)["serves"].get<std::string>();
  };
  EXPECT_NE(serves("tiny").find("chat"), std::string::npos);
  EXPECT_NE(serves("tiny-bert").find("/v1/embeddings (an embedding model, CLS pooling)"),
            std::string::npos);
  EXPECT_NE(serves("tiny-nomic-bert").find("mean pooling"), std::string::npos);
  EXPECT_NE(serves("tiny-bert-reranker").find("/v1/rerank"), std::string::npos);
  EXPECT_NE(serves("tiny-qwen3-reranker").find("/v1/rerank"), std::string::npos);
  CommandResult text =
      run_command({ingot_binary(), "doctor", "--model", synthetic_model("tiny-bert", "f16")});
  EXPECT_NE(text.out.find("learned absolute positions"), std::string::npos) << text.out;
}

}  // namespace
}  // namespace ingot::testing
