// ingot-synth: writes a GGUF model with seeded random weights in the shape
// of a real model (or a tiny one for tests), with a real vocabulary copied
// from another GGUF or a Hugging Face tokenizer. The output is noise, but
// every loader, tokenizer, template and server path can run on it.

#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>

#include "gguf/writer.h"
#include "kernels/quantize.h"
#include "random_weights.h"
#include "shapes.h"
#include "tensor_plan.h"
#include "vocabulary.h"
#include "weight_types.h"

namespace ingot::synth {
namespace {

struct Options {
  std::string shape = "tiny";
  std::string type = "f16";
  uint64_t seed = 0;
  std::string out;
  std::string vocab_from;
  std::string hf_tokenizer;
  std::string hf_config;
  std::string name;
  std::string chat_template;
  std::string nextn = "random";
  int64_t lora_rank = 0;  // > 0: write a LoRA adapter for the shape, not a model
  float lora_alpha = 16.0f;
};

template <typename Key>
void write_linear_attention(const Shape& s, const Key& key, gguf::GgufWriter& w) {
  const LinearAttentionShape& l = s.linear;
  w.set_u32(key("full_attention_interval"), static_cast<uint32_t>(s.full_attention_interval));
  w.set_u32(key("ssm.conv_kernel"), static_cast<uint32_t>(l.conv_kernel));
  w.set_u32(key("ssm.state_size"), static_cast<uint32_t>(l.state_size));
  w.set_u32(key("ssm.group_count"), static_cast<uint32_t>(l.key_heads));
  w.set_u32(key("ssm.time_step_rank"), static_cast<uint32_t>(l.value_heads));
  w.set_u32(key("ssm.inner_size"), static_cast<uint32_t>(l.value_heads * l.state_size));
}

// Gemma 2 and 3 as their converters write them: a window and the caps, the
// sliding layers' pattern and RoPE base left to llama.cpp's defaults.
template <typename Key>
void write_gemma2_and_3(const Shape& s, const Key& key, gguf::GgufWriter& w) {
  const GemmaShape& g = s.gemma;
  w.set_u32(key("attention.sliding_window"), static_cast<uint32_t>(g.sliding_window));
  if (g.attention_softcap > 0) w.set_f32(key("attn_logit_softcapping"), g.attention_softcap);
  if (g.final_softcap > 0) w.set_f32(key("final_logit_softcapping"), g.final_softcap);
  if (g.global_rope_linear > 0) {
    w.set_string(key("rope.scaling.type"), "linear");
    w.set_f32(key("rope.scaling.factor"), g.global_rope_linear);
  }
}

template <typename Key>
void write_gemma4(const Shape& s, const Key& key, gguf::GgufWriter& w) {
  const GemmaShape& g = s.gemma;
  std::vector<bool> sliding;
  for (int64_t i = 0; i < s.layers; ++i) sliding.push_back(g.is_sliding(i));
  w.set_bools(key("attention.sliding_window_pattern"), sliding);
  w.set_u32(key("attention.sliding_window"), static_cast<uint32_t>(g.sliding_window));
  w.set_u32(key("attention.key_length_swa"), static_cast<uint32_t>(g.sliding_head_dim));
  w.set_u32(key("attention.value_length_swa"), static_cast<uint32_t>(g.sliding_head_dim));
  w.set_u32(key("rope.dimension_count_swa"), static_cast<uint32_t>(g.sliding_head_dim));
  w.set_f32(key("rope.freq_base_swa"), static_cast<float>(g.sliding_rope_base));
  w.set_u32(key("attention.shared_kv_layers"), static_cast<uint32_t>(g.shared_kv_layers));
  w.set_u32(key("embedding_length_per_layer_input"), static_cast<uint32_t>(g.per_layer_embedding));
  if (g.final_softcap > 0) w.set_f32(key("final_logit_softcapping"), g.final_softcap);
}

// DiffusionGemma as llama.cpp's converter (pull request 24423) writes it:
// a bidirectional decoder, the canvas, and the sampler's defaults from the
// generation config (transformers' defaults, written out).
template <typename Key>
void write_diffusion(const Shape& s, const Key& key, gguf::GgufWriter& w) {
  w.set_bool(key("attention.causal"), false);
  w.set_u32("diffusion.canvas_length", static_cast<uint32_t>(s.gemma.canvas_length));
  w.set_u32("diffusion.eb_max_steps", 48);
  w.set_f32("diffusion.eb_t_min", 0.4f);
  w.set_f32("diffusion.eb_t_max", 0.8f);
  w.set_f32("diffusion.eb_entropy_bound", 0.1f);
  w.set_u32("diffusion.eb_stability_threshold", 1);
  w.set_f32("diffusion.eb_confidence_threshold", 0.005f);
}

// Qwen3-Reranker as llama.cpp's converter writes it: the labels of its
// head's rows (llama.cpp counts its outputs by them) and the prompt each
// (query, document) pair is put in.
template <typename Key>
void write_decoder_reranker(const Shape&, const Key& key, gguf::GgufWriter& w) {
  const std::vector<std::string> labels{"yes", "no"};
  w.set_strings(key("classifier.output_labels"), labels);
  w.set_string(
      "tokenizer.chat_template.rerank",
      "<|im_start|>system\nJudge whether the Document meets the requirements based on the Query "
      "and the Instruct provided. Note that the answer can only be \"yes\" or "
      "\"no\".<|im_end|>\n<|im_start|>user\n<Instruct>: Given a web search query, retrieve "
      "relevant passages that answer the query\n<Query>: {query}\n<Document>: "
      "{document}<|im_end|>\n<|im_start|>assistant\n<think>\n\n</think>\n\n");
}

void write_hyperparameters(const Shape& s, gguf::GgufWriter& w) {
  std::string arch(s.architecture);
  const bool encoder = s.architecture == "bert" || s.architecture == "nomic-bert";
  auto key = [&arch](std::string_view suffix) { return arch + "." + std::string(suffix); };
  w.set_string("general.architecture", arch);
  w.set_u32(key("context_length"), static_cast<uint32_t>(s.context));
  w.set_u32(key("embedding_length"), static_cast<uint32_t>(s.hidden));
  w.set_u32(key("block_count"), static_cast<uint32_t>(s.layers + s.nextn_layers));
  if (s.nextn_layers > 0) {
    w.set_u32(key("nextn_predict_layers"), static_cast<uint32_t>(s.nextn_layers));
  }
  w.set_u32(key("feed_forward_length"), static_cast<uint32_t>(s.feed_forward));
  w.set_u32(key("attention.head_count"), static_cast<uint32_t>(s.heads));
  if (s.gemma.global_kv_heads > 0) {
    std::vector<int32_t> per_layer;
    for (int64_t i = 0; i < s.layers; ++i) per_layer.push_back(int32_t(s.kv_heads_of(i)));
    w.set_i32s(key("attention.head_count_kv"), per_layer);
  } else {
    w.set_u32(key("attention.head_count_kv"), static_cast<uint32_t>(s.kv_heads));
  }
  // llama.cpp writes the per-head widths when they differ from hidden /
  // heads, and always for qwen3.
  if (s.head_dim * s.heads != s.hidden || s.architecture == "qwen3" ||
      s.full_attention_interval > 0 || s.gemma.global_every > 0) {
    w.set_u32(key("attention.key_length"), static_cast<uint32_t>(s.head_dim));
    w.set_u32(key("attention.value_length"), static_cast<uint32_t>(s.head_dim));
  }
  if (s.architecture == "llama" || s.rope_dims > 0) {
    int64_t rotated = s.rope_dims > 0 ? s.rope_dims : s.head_dim;
    w.set_u32(key("rope.dimension_count"), static_cast<uint32_t>(rotated));
  }
  if (s.rope_sections != std::array<int32_t, 4>{}) {
    w.set_i32s(key("rope.dimension_sections"), s.rope_sections);
  }
  if (s.full_attention_interval > 0) write_linear_attention(s, key, w);
  if (s.architecture == "gemma2" || s.architecture == "gemma3") write_gemma2_and_3(s, key, w);
  if (s.rope_original_context > 0) {
    // As Phi-3's converter writes LongRoPE: the original context, and the
    // attention factor sqrt(1 + ln(s) / ln(original)) for s the trained
    // context over it.
    const double scale = double(s.context) / double(s.rope_original_context);
    w.set_u32(key("rope.scaling.original_context_length"),
              static_cast<uint32_t>(s.rope_original_context));
    w.set_f32(key("rope.scaling.attn_factor"),
              float(std::sqrt(1.0 + std::log(scale) / std::log(double(s.rope_original_context)))));
    w.set_u32(key("attention.sliding_window"), 0);
  }
  if (s.is_gemma4()) write_gemma4(s, key, w);
  if (s.gemma.canvas_length > 0) write_diffusion(s, key, w);
  if (s.architecture == "gpt-oss") {
    w.set_u32(key("attention.sliding_window"), static_cast<uint32_t>(s.gemma.sliding_window));
  }
  if (s.pooling_type > 0) {
    w.set_u32(key("pooling_type"), static_cast<uint32_t>(s.pooling_type));
  }
  if (encoder) {
    w.set_bool(key("attention.causal"), false);
    w.set_f32(key("attention.layer_norm_epsilon"), s.rms_epsilon);
  }
  if (s.classifier_outputs > 1) write_decoder_reranker(s, key, w);
  if (s.yarn_factor > 0) {
    w.set_string(key("rope.scaling.type"), "yarn");
    w.set_f32(key("rope.scaling.factor"), s.yarn_factor);
    w.set_u32(key("rope.scaling.original_context_length"),
              static_cast<uint32_t>(s.yarn_original_context));
  }
  if (s.moe.experts > 0) {
    w.set_u32(key("expert_count"), static_cast<uint32_t>(s.moe.experts));
    w.set_u32(key("expert_used_count"), static_cast<uint32_t>(s.moe.experts_used));
    w.set_u32(key("expert_feed_forward_length"), static_cast<uint32_t>(s.moe.expert_feed_forward));
    if (s.moe.shared_feed_forward > 0) {
      w.set_u32(key("expert_shared_feed_forward_length"),
                static_cast<uint32_t>(s.moe.shared_feed_forward));
    }
  }
  if (s.rope_base > 0) w.set_f32(key("rope.freq_base"), static_cast<float>(s.rope_base));
  if (!encoder) w.set_f32(key("attention.layer_norm_rms_epsilon"), s.rms_epsilon);
}

Result<int64_t> write_vocabulary(const Options& o, gguf::GgufWriter& writer) {
  if (!o.vocab_from.empty()) return copy_vocabulary_from_gguf(o.vocab_from, writer);
  if (!o.hf_tokenizer.empty()) return import_hf_tokenizer(o.hf_tokenizer, o.hf_config, writer);
  return write_byte_vocabulary(writer);
}

Status add_tensors(const Options& o, const Shape& shape, WeightPreset preset, int64_t vocabulary,
                   gguf::GgufWriter& writer) {
  for (const PlannedTensor& tensor : plan_tensors(shape, vocabulary)) {
    kernels::ElementType type = element_type_for(tensor, preset, shape);
    if (!kernels::can_quantize(type)) {
      return unsupported(fmt::format("cannot write {} tensors", kernels::element_type_name(type)));
    }
    gguf::GgufWriter::Filler filler;
    if (o.nextn == "echo" && tensor.layer >= shape.layers) {
      filler = echo_prediction_filler(tensor, type);
    }
    if (!filler) filler = random_filler(tensor, type, o.seed);
    INGOT_RETURN_IF_ERROR(writer.add_tensor(tensor.name, tensor.dims, type, std::move(filler)));
  }
  return {};
}

std::string general_name(const Options& o) {
  if (!o.name.empty()) return o.name;
  return fmt::format("ingot-synth {} {} seed {} (random weights: its output is noise)", o.shape,
                     o.type, o.seed);
}

void write_general(const Options& o, WeightPreset preset, gguf::GgufWriter& writer) {
  writer.set_string("general.name", general_name(o));
  // What tells ingot (serve's start-up line) that the weights are random,
  // whatever the file is named.
  writer.set_bool("ingot.synthetic", true);
  writer.set_u32("general.file_type", file_type_id(preset));
  if (preset != WeightPreset::kF32 && preset != WeightPreset::kF16) {
    writer.set_u32("general.quantization_version", 2);
  }
}

// A LoRA adapter in llama.cpp's format (convert_lora_to_gguf.py's keys):
// general.type "adapter", adapter.type "lora", adapter.lora.alpha, and the
// low-rank pair of each targeted projection, seeded like a model's weights.
Status write_lora_adapter(const Options& o, const Shape& shape, WeightPreset preset) {
  gguf::GgufWriter writer;
  writer.set_string("general.architecture", std::string(shape.architecture));
  writer.set_string("general.type", "adapter");
  writer.set_string("general.name", o.name.empty()
                                        ? fmt::format("ingot-synth LoRA rank {} for {} seed {}",
                                                      o.lora_rank, o.shape, o.seed)
                                        : o.name);
  writer.set_string("adapter.type", "lora");
  writer.set_f32("adapter.lora.alpha", o.lora_alpha);
  for (const PlannedTensor& tensor : plan_lora_tensors(shape, o.lora_rank)) {
    const kernels::ElementType type = element_type_for(tensor, preset, shape);
    INGOT_RETURN_IF_ERROR(
        writer.add_tensor(tensor.name, tensor.dims, type, random_filler(tensor, type, o.seed)));
  }
  return writer.write(o.out);
}

Status synthesize(const Options& o) {
  std::optional<Shape> shape = find_shape(o.shape);
  if (!shape) {
    return invalid_argument(
        fmt::format("unknown shape '{}' (known: {})", o.shape, fmt::join(shape_names(), ", ")));
  }
  std::optional<WeightPreset> preset = find_preset(o.type);
  if (!preset) {
    return invalid_argument(fmt::format(
        "unknown type '{}' (known: f32, f16, q8_0, q4_0, q4_k_m, iq4_nl, iq4_xs, mxfp4)", o.type));
  }
  if (o.lora_rank > 0) {
    if (shape->full_attention_interval > 0 || shape->moe.experts > 0 ||
        shape->gemma.global_every > 0 || shape->architecture == "phi3" ||
        shape->architecture == "bert" || shape->architecture == "nomic-bert") {
      return invalid_argument("LoRA adapters are written for plain transformer shapes only");
    }
    return write_lora_adapter(o, *shape, *preset);
  }
  gguf::GgufWriter writer;
  write_hyperparameters(*shape, writer);
  write_general(o, *preset, writer);
  INGOT_ASSIGN_OR_RETURN(int64_t vocabulary, write_vocabulary(o, writer));
  if (!o.chat_template.empty()) {
    std::ifstream in(o.chat_template, std::ios::binary);
    if (!in) return invalid_argument("cannot read " + o.chat_template);
    std::string source((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    writer.set_string("tokenizer.chat_template", source);
  }
  if (vocabulary <= 0) return invalid_argument("the vocabulary is empty");
  INGOT_RETURN_IF_ERROR(add_tensors(o, *shape, *preset, vocabulary, writer));
  return writer.write(o.out);
}

}  // namespace
}  // namespace ingot::synth

int main(int argc, char** argv) {
  ingot::synth::Options options;
  CLI::App app{"ingot-synth: write a GGUF model with seeded random weights"};
  app.add_option("--shape", options.shape,
                 "One of: " + fmt::format("{}", fmt::join(ingot::synth::shape_names(), ", ")))
      ->capture_default_str();
  app.add_option("--type", options.type, "f32, f16, q8_0, q4_0, q4_k_m, iq4_nl, iq4_xs or mxfp4")
      ->capture_default_str();
  app.add_option("--seed", options.seed, "Seed of the random weights")->capture_default_str();
  app.add_option("--out", options.out, "The GGUF file to write")->required();
  auto* vocab_from = app.add_option("--vocab-from", options.vocab_from,
                                    "Copy the vocabulary (every tokenizer.* key) of this GGUF");
  auto* hf_tokenizer = app.add_option("--hf-tokenizer", options.hf_tokenizer,
                                      "Import a Hugging Face BPE tokenizer.json");
  app.add_option("--hf-config", options.hf_config,
                 "tokenizer_config.json: special tokens and chat template")
      ->needs(hf_tokenizer);
  vocab_from->excludes(hf_tokenizer);
  app.add_option("--name", options.name, "general.name (default: says the weights are random)");
  app.add_option("--chat-template", options.chat_template,
                 "A Jinja file to use as tokenizer.chat_template instead of the vocabulary's");
  app.add_option("--nextn", options.nextn,
                 "The prediction block's weights: random, or echo (it drafts the token it is "
                 "given, for tests of speculative decoding)")
      ->check(CLI::IsMember({"random", "echo"}))
      ->capture_default_str();
  app.add_option("--lora-rank", options.lora_rank,
                 "Write a LoRA adapter of this rank for the shape (llama.cpp's format) instead "
                 "of a model")
      ->check(CLI::Range(1, 1024));
  app.add_option("--lora-alpha", options.lora_alpha, "The adapter's alpha (scale alpha / rank)")
      ->capture_default_str();
  CLI11_PARSE(app, argc, argv);

  ingot::Status status = ingot::synth::synthesize(options);
  if (!status.ok()) {
    std::fprintf(stderr, "ingot-synth: %s\n", status.error().describe().c_str());
    return 1;
  }
  return 0;
}
