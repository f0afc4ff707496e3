// `ingot doctor --model FILE`: a preflight that reads only a GGUF's header
// and tensor table and says what the file holds, what it needs, and whether
// ingot can run it.

#include <fmt/format.h>

#include <cctype>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "chat/tool_calls/tool_call_family.h"
#include "cli/cache_type_options.h"
#include "cli/commands.h"
#include "gguf/reader.h"
#include "gguf/summary.h"
#include "kernels/dispatch.h"
#include "model/architecture.h"
#include "model/model.h"
#include "model/model_config.h"

namespace ingot::cli {
namespace {

constexpr uint64_t kFallbackContext = 4096;

struct DoctorOptions {
  std::string model;
  uint64_t context = 0;  // 0: the model's own context length
  uint64_t parallel = 1;
  bool mtp = false;        // plan for `serve --mtp`
  uint64_t draft_max = 3;  // serve's default
  bool json = false;
  CacheTypeNames cache_types;
  bool swa_full = false;  // plan for `serve --swa-full`
};

struct Plan {
  uint64_t context;
  uint64_t parallel;
  std::optional<uint64_t> kv_cache_bytes;
  // Hybrid models: only the attention layers keep keys and values; each
  // sequence also keeps a fixed-size state per linear-attention layer.
  uint64_t attention_layers = 0;
  uint64_t recurrent_layers = 0;
  uint64_t recurrent_bytes = 0;
  uint64_t shared_kv_layers = 0;  // Gemma 4: layers reading an earlier layer's keys and values
  // Mixture-of-experts models: experts per layer, and how many a token runs.
  uint64_t experts = 0;
  uint64_t experts_used = 0;
  // Qwen3.5's multi-token-prediction block: with --mtp it keeps its own
  // keys and values, and each sequence keeps a recurrent-state checkpoint
  // per draft it checks.
  uint64_t prediction_layers = 0;
  uint64_t prediction_kv_bytes = 0;
  uint64_t checkpoint_bytes = 0;
  bool mtp = false;
  uint64_t draft_max = 0;
  std::string cache_label = "F16";  // the KV cache's element types
  // Sliding-window layers, which keep only their windows unless --swa-full.
  uint64_t sliding_layers = 0;
  uint64_t window = 0;
  bool swa_full = false;
  // What `serve` answers with this file, and how positions are encoded
  // when not by RoPE (BERT's learned ones).
  std::string serves = "";
  bool learned_positions = false;
  // How tool calls are read and constrained, from the chat template; empty
  // without one (ChatML then, and the generic JSON reply).
  std::string tool_call_family = "";
  bool template_renders_tools = false;

  uint64_t prediction_bytes() const { return mtp ? prediction_kv_bytes + checkpoint_bytes : 0; }
  uint64_t total(uint64_t weights) const {
    return weights + kv_cache_bytes.value_or(0) + recurrent_bytes + prediction_bytes();
  }
};

// What the layers keep per sequence where they differ by kind: the keys and
// values of the layers that keep their own (Gemma 4, hybrid models), the
// recurrent state of linear-attention layers, and the experts a token runs.
// As serve decides: a file naming mean, CLS or last pooling is an embedding
// model, one naming rank pooling (with a cls.output head) a reranker.
std::string served_routes(const gguf::GgufFile& file, const model::ModelConfig& c) {
  static constexpr const char* kPoolings[] = {"none", "mean", "CLS", "last"};
  if (c.pooling_type >= 1 && c.pooling_type <= 3) {
    return fmt::format("/v1/embeddings (an embedding model, {} pooling)",
                       kPoolings[c.pooling_type]);
  }
  if (c.pooling_type == 4) {
    return file.find_tensor("cls.output.weight") != nullptr
               ? "/v1/rerank (a reranking model)"
               : "nothing: the file names rank pooling but has no cls.output head";
  }
  if (c.traits.encoder) return "/v1/embeddings (an encoder, CLS pooling)";
  if (const model::DiffusionConfig& d = c.diffusion; d.canvas_length > 0) {
    return fmt::format(
        "chat, completions, messages, responses, each reply denoised a canvas of {} tokens at a "
        "time (up to {} steps at temperatures {:g} to {:g}, entropy bound {:g})",
        d.canvas_length, d.max_steps, d.t_max, d.t_min, d.entropy_bound);
  }
  return "chat, completions, messages, responses (serve --embeddings adds /v1/embeddings)";
}

void plan_layer_memory(const gguf::GgufFile& file, Plan& plan) {
  auto config = model::ModelConfig::from_gguf(file);
  if (!config.ok()) return;
  const model::ModelConfig& c = *config;
  plan.serves = served_routes(file, c);
  plan.learned_positions = c.traits.learned_positions;
  plan.experts = uint64_t(c.experts.count);
  plan.experts_used = uint64_t(c.experts.used);
  if (c.traits.gemma) {
    // Each layer that keeps keys and values, at its own head count and size.
    uint64_t per_position = 0;
    for (int64_t layer = 0; layer < c.n_layers; ++layer) {
      if (c.kv_source[size_t(layer)] != layer) {
        ++plan.shared_kv_layers;
        continue;
      }
      per_position += uint64_t(c.kv_dim_of(layer)) * 2 * 2;
    }
    plan.kv_cache_bytes = per_position * plan.context * plan.parallel;
    return;
  }
  if (c.n_recurrent_layers == 0) return;
  constexpr uint64_t kF16Bytes = 2;
  plan.attention_layers = uint64_t(c.n_attention_layers);
  plan.recurrent_layers = uint64_t(c.n_recurrent_layers);
  plan.kv_cache_bytes =
      plan.attention_layers * uint64_t(c.kv_dim()) * 2 * kF16Bytes * plan.context * plan.parallel;
  const uint64_t per_layer =
      uint64_t(c.linear.conv_state_floats() + c.linear.delta_state_floats()) * sizeof(float);
  plan.recurrent_bytes = plan.recurrent_layers * per_layer * plan.parallel;
  plan.prediction_layers = uint64_t(c.n_nextn_layers);
  plan.prediction_kv_bytes =
      plan.prediction_layers * uint64_t(c.kv_dim()) * 2 * kF16Bytes * plan.context * plan.parallel;
  plan.checkpoint_bytes = plan.draft_max * plan.recurrent_bytes;
}

// A quantized cache (--cache-type-k, --cache-type-v) takes what the KV
// cache computes for its layers at those types.
void plan_cache_types(const gguf::GgufFile& file, model::KvCache::Types types, Plan& plan) {
  if (types.keys == kernels::ElementType::kF16 && types.values == kernels::ElementType::kF16) {
    return;
  }
  auto upper = [](std::string_view name) {
    std::string out(name);
    for (char& c : out) c = char(std::toupper(static_cast<unsigned char>(c)));
    return out;
  };
  const std::string keys = upper(kernels::element_type_name(types.keys));
  const std::string values = upper(kernels::element_type_name(types.values));
  plan.cache_label = keys == values ? keys : keys + " keys, " + values + " values,";
  auto config = model::ModelConfig::from_gguf(file);
  if (!config.ok()) return;
  const int64_t per_position =
      model::KvCache::bytes_per_position(model::kv_cache_layers(*config), types);
  plan.kv_cache_bytes = uint64_t(per_position) * plan.context * plan.parallel;
}

// Sliding-window layers keep their windows alone (KvCache::WindowPlan),
// as `ingot serve` plans them for `parallel` slots and its batch.
void plan_windows(const gguf::GgufFile& file, model::KvCache::Types types, Plan& plan) {
  auto config = model::ModelConfig::from_gguf(file);
  if (!config.ok()) return;
  const model::ModelConfig& c = *config;
  for (int64_t layer = 0; layer < c.n_layers; ++layer) {
    if (c.is_sliding(layer) && c.kv_source[size_t(layer)] == layer) ++plan.sliding_layers;
  }
  if (plan.sliding_layers == 0 || c.swa.window <= 0) return;
  plan.window = uint64_t(c.swa.window);
  if (plan.swa_full) return;
  constexpr int64_t kServeBatch = 512;
  const model::KvCache::WindowPlan window =
      model::kv_window_plan(c, int64_t(plan.parallel), kServeBatch);
  plan.kv_cache_bytes = uint64_t(model::KvCache::bytes_for(
      model::kv_cache_layers(c), int64_t(plan.context * plan.parallel), types, window));
}

// Everything that stops ingot from running the file, one line each.
void plan_tool_calls(const gguf::GgufFile& file, Plan& plan) {
  std::string source = file.metadata().get_or<std::string>("tokenizer.chat_template", "");
  if (source.empty()) return;
  plan.tool_call_family =
      std::string(chat::tool_calls::family_name(chat::tool_calls::detect_tool_call_family(source)));
  plan.template_renders_tools = chat::tool_calls::template_renders_tools(source);
}

// The model layer decides which architectures run and which metadata they
// need; the file's tensor types are checked against the kernels' table.
std::vector<std::string> blockers(const gguf::GgufFile& file, const gguf::FileSummary& s) {
  std::vector<std::string> found;
  if (!model::find_architecture(s.architecture)) {
    found.push_back(fmt::format("architecture '{}' is not supported", s.architecture));
  } else if (auto config = model::ModelConfig::from_gguf(file); !config.ok()) {
    found.push_back("its metadata does not describe a model ingot can build: " +
                    config.error().describe());
  }
  for (const auto& [type, count] : s.tensor_types) {
    if (kernels::element_type_info(type).supported) continue;
    found.push_back(fmt::format("tensor type {} is not supported ({} tensors, e.g. {})",
                                kernels::element_type_name(type), count.tensors, count.example));
  }
  if (s.tensor_types.empty()) found.push_back("the file holds no tensors (a vocabulary only)");
  if (s.vocabulary_size == 0) found.push_back("the file holds no vocabulary");
  return found;
}

std::string human_bytes(uint64_t bytes) {
  constexpr const char* kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double value = static_cast<double>(bytes);
  size_t unit = 0;
  while (value >= 1024 && unit + 1 < std::size(kUnits)) {
    value /= 1024;
    ++unit;
  }
  return unit == 0 ? fmt::format("{} B", bytes) : fmt::format("{:.1f} {}", value, kUnits[unit]);
}

std::string human_count(uint64_t n) {
  if (n >= 1'000'000'000) return fmt::format("{:.2f} B", n / 1e9);
  if (n >= 1'000'000) return fmt::format("{:.2f} M", n / 1e6);
  if (n >= 1'000) return fmt::format("{:.1f} K", n / 1e3);
  return std::to_string(n);
}

std::string or_unknown(const std::optional<uint64_t>& value) {
  return value ? std::to_string(*value) : "unknown";
}

std::string special_tokens_line(const gguf::FileSummary& s) {
  std::vector<std::string> parts;
  for (const auto& token : s.special_tokens) {
    std::string text = token.text ? nlohmann::json(*token.text).dump() : "(past the vocabulary)";
    parts.push_back(fmt::format("{} {} {}", token.role, token.id, text));
  }
  return parts.empty() ? "none" : fmt::format("{}", fmt::join(parts, ", "));
}

std::string rope_line(const gguf::FileSummary& s) {
  std::string line = fmt::format("freq base {}, scaling {}", s.rope_freq_base, s.rope_scaling_type);
  if (s.rope_scaling_factor) line += fmt::format(" x{}", *s.rope_scaling_factor);
  if (s.rope_dimension_count) line += fmt::format(", {} rotary dims", *s.rope_dimension_count);
  return line;
}

void print_text(const DoctorOptions& options, const gguf::FileSummary& s, const Plan& plan,
                const std::vector<std::string>& problems) {
  auto row = [](std::string_view label, const std::string& value) {
    std::printf("%-14s %s\n", std::string(label).c_str(), value.c_str());
  };
  row("file", fmt::format("{} ({}, GGUF v{})", options.model, human_bytes(s.file_size), s.version));
  if (!s.name.empty()) row("name", s.name);
  row("architecture", s.architecture.empty() ? "(none)" : s.architecture);
  row("parameters", fmt::format("{} ({})", human_count(s.parameter_count), s.parameter_count));
  for (const auto& [type, count] : s.tensor_types) {
    row("tensors",
        fmt::format("{:<6} {:>4} tensors, {:>12} params, {}", kernels::element_type_name(type),
                    count.tensors, count.elements, human_bytes(count.bytes)));
  }
  row("context", or_unknown(s.context_length));
  row("layers", or_unknown(s.block_count));
  row("embedding", or_unknown(s.embedding_length));
  row("feed-forward", or_unknown(s.feed_forward_length));
  const std::string kv_heads =
      s.fewest_head_count_kv && s.fewest_head_count_kv != s.head_count_kv
          ? fmt::format("{}-{} by layer", *s.fewest_head_count_kv, or_unknown(s.head_count_kv))
          : or_unknown(s.head_count_kv);
  row("heads", fmt::format("{} (KV heads {}, head dim {})", or_unknown(s.head_count), kv_heads,
                           or_unknown(s.key_length)));
  row("rope", plan.learned_positions ? "none: learned absolute positions" : rope_line(s));
  row("vocabulary",
      fmt::format("{} (pre-tokenizer {}), {} tokens",
                  s.vocabulary_type.empty() ? "none" : s.vocabulary_type,
                  s.pre_tokenizer.empty() ? "default" : s.pre_tokenizer, s.vocabulary_size));
  row("special", special_tokens_line(s));
  row("chat template", s.has_chat_template ? "present" : "absent");
  if (!plan.tool_call_family.empty()) {
    row("tool calls", plan.template_renders_tools
                          ? plan.tool_call_family
                          : plan.tool_call_family +
                                " (the template does not show tools: they go in a system message)");
  }
  std::string kv = plan.kv_cache_bytes ? human_bytes(*plan.kv_cache_bytes) : "unknown";
  if (plan.experts > 0) {
    row("experts", fmt::format("{} per layer, {} run per token (their weights are all in memory; "
                               "a token reads only its own)",
                               plan.experts, plan.experts_used));
  }
  if (plan.window > 0) {
    row("sliding",
        fmt::format("{} layers see the last {} positions: {}", plan.sliding_layers, plan.window,
                    plan.swa_full ? "they keep every position (--swa-full)"
                                  : "they keep only their windows (serve --swa-full "
                                    "keeps every position)"));
  }
  if (plan.shared_kv_layers > 0) {
    row("shared KV", fmt::format("{} layers read the keys and values of earlier layers (no cache "
                                 "of their own)",
                                 plan.shared_kv_layers));
  }
  if (plan.prediction_layers > 0) {
    row("prediction",
        fmt::format("{} multi-token-prediction block (serve --mtp drafts with it: {} F16 KV "
                    "cache + {} recurrent-state checkpoints for {} drafts per sequence{})",
                    plan.prediction_layers, human_bytes(plan.prediction_kv_bytes),
                    human_bytes(plan.checkpoint_bytes), plan.draft_max,
                    plan.mtp ? ", counted below" : "; --mtp counts them below"));
  }
  if (plan.recurrent_layers > 0) {
    row("layers", fmt::format("{} attention (keys and values), {} linear attention (a "
                              "fixed-size recurrent state per sequence)",
                              plan.attention_layers, plan.recurrent_layers));
    const std::string prediction =
        plan.mtp ? fmt::format(" + {} for --mtp", human_bytes(plan.prediction_bytes())) : "";
    row("memory", fmt::format("{} weights + {} {} KV cache (ctx {} x {} parallel) + {} recurrent "
                              "state{} = {}",
                              human_bytes(s.weight_bytes), kv, plan.cache_label, plan.context,
                              plan.parallel, human_bytes(plan.recurrent_bytes), prediction,
                              human_bytes(plan.total(s.weight_bytes))));
  } else {
    row("memory", fmt::format("{} weights + {} {} KV cache (ctx {} x {} parallel) = {}",
                              human_bytes(s.weight_bytes), kv, plan.cache_label, plan.context,
                              plan.parallel, human_bytes(plan.total(s.weight_bytes))));
  }
  row("kernels", std::string(kernels::isa_name(kernels::active_isa())));
  if (!plan.serves.empty()) row("serves", plan.serves);
  if (problems.empty()) row("verdict", "ingot can run this model");
  for (const std::string& problem : problems) row("verdict", "cannot run: " + problem);
}

void print_json(const DoctorOptions& options, const gguf::FileSummary& s, const Plan& plan,
                const std::vector<std::string>& problems) {
  using nlohmann::json;
  auto optional = [](const std::optional<uint64_t>& v) { return v ? json(*v) : json(nullptr); };
  json types = json::object();
  for (const auto& [type, count] : s.tensor_types) {
    types[std::string(kernels::element_type_name(type))] = {
        {"tensors", count.tensors}, {"elements", count.elements}, {"bytes", count.bytes}};
  }
  json special = json::object();
  for (const auto& token : s.special_tokens) {
    special[token.role] = {{"id", token.id},
                           {"text", token.text ? json(*token.text) : json(nullptr)}};
  }
  json out = {
      {"file", options.model},
      {"file_size", s.file_size},
      {"gguf_version", s.version},
      {"name", s.name},
      {"architecture", s.architecture},
      {"parameters", s.parameter_count},
      {"tensor_types", types},
      {"context_length", optional(s.context_length)},
      {"block_count", optional(s.block_count)},
      {"embedding_length", optional(s.embedding_length)},
      {"feed_forward_length", optional(s.feed_forward_length)},
      {"head_count", optional(s.head_count)},
      {"head_count_kv", optional(s.head_count_kv)},
      {"head_dim", optional(s.key_length)},
      {"value_dim", optional(s.value_length)},
      {"rope",
       {{"freq_base", s.rope_freq_base},
        {"dimension_count", optional(s.rope_dimension_count)},
        {"scaling_type", s.rope_scaling_type},
        {"scaling_factor", s.rope_scaling_factor ? json(*s.rope_scaling_factor) : json(nullptr)}}},
      {"vocabulary",
       {{"type", s.vocabulary_type}, {"pre", s.pre_tokenizer}, {"size", s.vocabulary_size}}},
      {"special_tokens", special},
      {"chat_template", s.has_chat_template},
      {"tool_calls", plan.tool_call_family.empty()
                         ? json(nullptr)
                         : json{{"family", plan.tool_call_family},
                                {"template_renders_tools", plan.template_renders_tools}}},
      {"memory",
       {{"weights_bytes", s.weight_bytes},
        {"context", plan.context},
        {"parallel", plan.parallel},
        {"kv_cache_bytes", optional(plan.kv_cache_bytes)},
        {"kv_cache_type", plan.cache_label},
        {"attention_layers",
         plan.recurrent_layers > 0 ? plan.attention_layers : s.block_count.value_or(0)},
        {"recurrent_layers", plan.recurrent_layers},
        {"recurrent_state_bytes", plan.recurrent_bytes},
        {"shared_kv_layers", plan.shared_kv_layers},
        {"sliding_layers", plan.sliding_layers},
        {"sliding_window", plan.window},
        {"swa_full", plan.swa_full},
        {"experts", plan.experts},
        {"experts_used", plan.experts_used},
        {"prediction_layers", plan.prediction_layers},
        {"prediction_kv_cache_bytes", plan.prediction_kv_bytes},
        {"checkpoint_bytes", plan.checkpoint_bytes},
        {"mtp", plan.mtp},
        {"total_bytes", plan.total(s.weight_bytes)}}},
      {"runnable", problems.empty()},
      {"kernels", std::string(kernels::isa_name(kernels::active_isa()))},
      {"serves", plan.serves},
      {"problems", problems},
  };
  std::printf("%s\n", out.dump(2).c_str());
}

int run_doctor(const DoctorOptions& options) {
  auto file = gguf::GgufFile::open(options.model);
  if (!file.ok()) {
    std::fprintf(stderr, "ingot doctor: %s\n", file.error().describe().c_str());
    return 1;
  }
  gguf::FileSummary summary = gguf::summarize(*file);
  Plan plan{options.context, options.parallel, std::nullopt};
  plan.mtp = options.mtp;
  plan.draft_max = options.draft_max;
  if (plan.context == 0) plan.context = summary.context_length.value_or(kFallbackContext);
  plan.kv_cache_bytes = summary.kv_cache_bytes(plan.context, plan.parallel);
  plan_layer_memory(*file, plan);
  plan_cache_types(*file, cache_types(options.cache_types), plan);
  plan.swa_full = options.swa_full;
  plan_windows(*file, cache_types(options.cache_types), plan);
  plan_tool_calls(*file, plan);
  std::vector<std::string> problems = blockers(*file, summary);
  if (options.json) {
    print_json(options, summary, plan, problems);
  } else {
    print_text(options, summary, plan, problems);
  }
  return problems.empty() ? 0 : 2;
}

}  // namespace

void register_doctor(CLI::App& app, int& exit_code) {
  auto options = std::make_shared<DoctorOptions>();
  CLI::App* command = app.add_subcommand(
      "doctor",
      "Say what a GGUF file holds, the memory it needs and whether ingot can run it "
      "(exit 0: runnable, 1: not a valid GGUF, 2: valid but not runnable)");
  command->add_option("--model", options->model, "The GGUF file")->required();
  command->add_option("--ctx", options->context,
                      "Context length to plan memory for (default: the model's)");
  command->add_option("--parallel", options->parallel, "Sequences served at once")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  command->add_flag("--mtp", options->mtp,
                    "Count what serve --mtp adds (the prediction block's cache and checkpoints)");
  command->add_option("--draft-max", options->draft_max, "Tokens drafted per step with --mtp")
      ->check(CLI::Range(1, 16))
      ->capture_default_str();
  add_cache_type_options(*command, options->cache_types);
  command->add_flag("--swa-full", options->swa_full,
                    "Plan for serve --swa-full: sliding-window layers keep every position");
  command->add_flag("--json", options->json, "Print the facts as JSON");
  command->callback([options, &exit_code] { exit_code = run_doctor(*options); });
}

}  // namespace ingot::cli
