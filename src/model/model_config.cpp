#include "model/model_config.h"

#include <cmath>
#include <string_view>

#include "kernels/ops_delta_rule.h"

namespace ingot::model {
namespace {

constexpr int64_t kMaxLayers = 512;
constexpr int64_t kMaxCanvas = 4096;
constexpr int64_t kMaxDiffusionSteps = 1024;

Result<int64_t> required_count(const gguf::Metadata& metadata, std::string_view suffix) {
  const std::string key = metadata.arch_key(suffix);
  if (!metadata.has(key)) return invalid_format("missing metadata key " + key);
  INGOT_ASSIGN_OR_RETURN(int64_t value, metadata.get<int64_t>(key));
  if (value <= 0) return invalid_format(key + " must be positive");
  return value;
}

int64_t optional_count(const gguf::Metadata& metadata, std::string_view suffix, int64_t fallback) {
  return metadata.get_or<int64_t>(metadata.arch_key(suffix), fallback);
}

float optional_float(const gguf::Metadata& metadata, std::string_view suffix, float fallback) {
  return metadata.get_or<float>(metadata.arch_key(suffix), fallback);
}

Status read_rope(const gguf::Metadata& metadata, ModelConfig& config) {
  kernels::RopeParams& rope = config.rope;
  rope.n_rot = int(optional_count(metadata, "rope.dimension_count", config.head_dim));
  if (rope.n_rot <= 0 || rope.n_rot % 2 != 0 || rope.n_rot > config.head_dim) {
    return invalid_format("rope.dimension_count must be even and at most the head size");
  }
  rope.freq_base = optional_float(metadata, "rope.freq_base", 10000.0f);
  // llama.cpp scales cos and sin by the file's attention factor whatever
  // the scaling (LongRoPE writes one).
  rope.attn_factor = optional_float(metadata, "rope.scaling.attn_factor", 1.0f);
  config.rope_original_context =
      optional_count(metadata, "rope.scaling.original_context_length", config.context_length);
  // Older files give a linear factor as rope.scale_linear; newer ones a
  // type and a factor.
  const std::string type =
      metadata.get_or<std::string>(metadata.arch_key("rope.scaling.type"), "none");
  float factor = optional_float(metadata, "rope.scaling.factor", 0.0f);
  if (factor == 0.0f) factor = optional_float(metadata, "rope.scale_linear", 1.0f);
  if (type == "none" || factor <= 1.0f) return {};
  if (type == "linear") {
    rope.freq_scale = 1.0f / factor;
    return {};
  }
  if (type == "yarn") {
    rope.freq_scale = 1.0f / factor;
    rope.ext_factor = 1.0f;
    rope.attn_factor = optional_float(metadata, "rope.scaling.attn_factor", 1.0f);
    rope.beta_fast = optional_float(metadata, "rope.scaling.yarn_beta_fast", 32.0f);
    rope.beta_slow = optional_float(metadata, "rope.scaling.yarn_beta_slow", 1.0f);
    rope.original_context = int(
        optional_count(metadata, "rope.scaling.original_context_length", config.context_length));
    return {};
  }
  return unsupported("rope scaling type '" + type + "'");
}

// Multimodal RoPE (Qwen3.5) gives each pair one of four positions by its
// section; text tokens have the first three equal to the position and the
// fourth 0, so a pair of the fourth section never turns.
void read_rope_sections(const gguf::Metadata& metadata, bool interleaved, ModelConfig& config) {
  const std::string key = metadata.arch_key("rope.dimension_sections");
  auto sections = metadata.get_or<std::vector<int32_t>>(key, {});
  if (sections.size() < 4) return;
  int64_t total = sections[0] + sections[1] + sections[2] + sections[3];
  if (total <= 0) return;
  const int n_pairs = config.rope.n_rot / 2;
  config.rope.still_pairs.assign(n_pairs, false);
  for (int i = 0; i < n_pairs; ++i) {
    int64_t sector = i % total;
    bool fourth;
    if (interleaved) {
      fourth = !((sector % 3 == 1 && sector < 3 * sections[1]) ||
                 (sector % 3 == 2 && sector < 3 * sections[2]) ||
                 (sector % 3 == 0 && sector < 3 * sections[0]));
    } else {
      fourth = sector >= sections[0] + sections[1] + sections[2];
    }
    config.rope.still_pairs[i] = fourth;
  }
}

// Hybrid layers: llama.cpp reads attention.recurrent_layers when the file
// has it, else makes every full_attention_interval-th layer attention.
Status read_hybrid_layers(const gguf::Metadata& metadata, ModelConfig& config) {
  LinearAttentionConfig& l = config.linear;
  INGOT_ASSIGN_OR_RETURN(l.conv_kernel, required_count(metadata, "ssm.conv_kernel"));
  INGOT_ASSIGN_OR_RETURN(l.state_size, required_count(metadata, "ssm.state_size"));
  INGOT_ASSIGN_OR_RETURN(l.key_heads, required_count(metadata, "ssm.group_count"));
  INGOT_ASSIGN_OR_RETURN(l.value_heads, required_count(metadata, "ssm.time_step_rank"));
  INGOT_ASSIGN_OR_RETURN(int64_t inner, required_count(metadata, "ssm.inner_size"));
  if (inner != l.value_dim()) {
    return unsupported("ssm.inner_size other than time_step_rank x state_size");
  }
  if (l.state_size > kernels::kMaxDeltaRuleSize) {
    return unsupported("ssm.state_size above " + std::to_string(kernels::kMaxDeltaRuleSize));
  }
  if (l.value_heads % l.key_heads != 0) {
    return invalid_format("ssm.time_step_rank must be a multiple of ssm.group_count");
  }
  config.recurrent.assign(config.n_layers, false);
  const std::string flags_key = metadata.arch_key("attention.recurrent_layers");
  if (metadata.has(flags_key)) {
    auto flags = metadata.get_or<std::vector<int32_t>>(flags_key, {});
    if (int64_t(flags.size()) < config.n_layers) {
      return invalid_format(flags_key + " has fewer entries than block_count");
    }
    for (int64_t i = 0; i < config.n_layers; ++i) config.recurrent[i] = flags[i] != 0;
  } else {
    int64_t interval = optional_count(metadata, "full_attention_interval", 4);
    if (interval <= 0) return invalid_format("full_attention_interval must be positive");
    for (int64_t i = 0; i < config.n_layers; ++i) config.recurrent[i] = (i + 1) % interval != 0;
  }
  return {};
}

Status read_experts(const gguf::Metadata& metadata, ModelConfig& config) {
  ExpertConfig& e = config.experts;
  INGOT_ASSIGN_OR_RETURN(e.count, required_count(metadata, "expert_count"));
  INGOT_ASSIGN_OR_RETURN(e.used, required_count(metadata, "expert_used_count"));
  INGOT_ASSIGN_OR_RETURN(e.feed_forward, required_count(metadata, "expert_feed_forward_length"));
  if (e.used > e.count) return invalid_format("expert_used_count exceeds expert_count");
  if (config.traits.gemma) e.activation = ExpertActivation::kGELU;
  if (config.traits.gpt_oss) {
    e.gating = ExpertGating::kTopKThenSoftmax;
    e.activation = ExpertActivation::kClampedSwiGLU;
  }
  // llama.cpp's shared expert is feed_forward_length wide unless its own
  // length is given.
  config.n_ff = optional_count(metadata, "expert_shared_feed_forward_length", config.n_ff);
  if (config.traits.shared_expert && config.n_ff <= 0) {
    return invalid_format("the shared expert has no width");
  }
  return {};
}

// Which layers slide: Gemma 4 lists them; Gemma 2 and 3 give a period (as
// llama.cpp reads it: every second layer global in Gemma 2 and every sixth
// in Gemma 3 unless the file says; Gemma 2's window is 4096 unless the file
// says, and a Gemma 3 without one has no sliding layers).
Status read_sliding_layers(const gguf::Metadata& metadata, ModelConfig& config) {
  SlidingWindowConfig& g = config.swa;
  const std::string pattern_key = metadata.arch_key("attention.sliding_window_pattern");
  if (auto pattern = metadata.get<std::vector<int32_t>>(pattern_key); pattern.ok()) {
    if (int64_t(pattern->size()) < config.n_layers) {
      return invalid_format(pattern_key + " must give every layer");
    }
    for (int64_t i = 0; i < config.n_layers; ++i) g.layers.push_back((*pattern)[size_t(i)] != 0);
    INGOT_ASSIGN_OR_RETURN(g.window, required_count(metadata, "attention.sliding_window"));
    return {};
  }
  if (config.traits.normed_values) return invalid_format(pattern_key + " must give every layer");
  const bool gemma2 = config.traits.architecture == Architecture::kGemma2;
  const bool every_other = gemma2 || config.traits.gpt_oss;
  if (config.traits.gpt_oss) {
    INGOT_ASSIGN_OR_RETURN(g.window, required_count(metadata, "attention.sliding_window"));
  } else {
    g.window = optional_count(metadata, "attention.sliding_window", gemma2 ? 4096 : 0);
  }
  const int64_t period =
      optional_count(metadata, "attention.sliding_window_pattern", every_other ? 2 : 6);
  for (int64_t i = 0; i < config.n_layers; ++i) {
    g.layers.push_back(g.window > 0 && (period == 0 || i % period < period - 1));
  }
  return {};
}

// gpt-oss: even layers slide, odd ones see everything (llama.cpp's
// default period of 2); both kinds have one head size and one RoPE, YaRN
// included, the sliding layers' base their own where the file says.
Status read_gpt_oss(const gguf::Metadata& metadata, ModelConfig& config) {
  SlidingWindowConfig& g = config.swa;
  INGOT_RETURN_IF_ERROR(read_sliding_layers(metadata, config));
  g.head_dim = config.head_dim;
  g.rope = config.rope;
  g.rope.freq_base = optional_float(metadata, "rope.freq_base_swa", config.rope.freq_base);
  return {};
}

Status read_gemma(const gguf::Metadata& metadata, ModelConfig& config) {
  GemmaConfig& g = config.gemma;
  SlidingWindowConfig& sw = config.swa;
  INGOT_RETURN_IF_ERROR(read_sliding_layers(metadata, config));
  sw.head_dim = optional_count(metadata, "attention.key_length_swa", config.head_dim);
  if (optional_count(metadata, "attention.value_length_swa", sw.head_dim) != sw.head_dim) {
    return unsupported("sliding layers' value heads of a different size than their key heads");
  }
  // As llama.cpp runs them: Gemma 2's sliding layers rotate as its global
  // ones; Gemma 3's and 4's are never scaled, their base 10000 unless the
  // file says.
  const bool gemma2 = config.traits.architecture == Architecture::kGemma2;
  sw.rope = gemma2 ? config.rope : kernels::RopeParams{};
  sw.rope.n_rot = int(optional_count(metadata, "rope.dimension_count_swa", config.rope.n_rot));
  sw.rope.freq_base =
      optional_float(metadata, "rope.freq_base_swa", gemma2 ? config.rope.freq_base : 10000.0f);
  if (sw.rope.n_rot <= 0 || sw.rope.n_rot % 2 != 0 || sw.rope.n_rot > sw.head_dim) {
    return invalid_format("rope.dimension_count_swa must be even and at most the head size");
  }
  g.per_layer_embedding = optional_count(metadata, "embedding_length_per_layer_input", 0);
  // llama.cpp's defaults where the file is silent: Gemma 3 does not cap.
  const bool gemma3 = config.traits.architecture == Architecture::kGemma3;
  g.final_softcap = optional_float(metadata, "final_logit_softcapping", gemma3 ? 0.0f : 30.0f);
  if (gemma2) g.attention_softcap = optional_float(metadata, "attn_logit_softcapping", 50.0f);
  if (config.traits.normed_values) {
    config.attention_scale = 1.0f;  // as llama.cpp runs Gemma 4: no 1/sqrt(d) on the scores
  } else if (config.n_layers == (gemma2 ? 46 : 62)) {
    // Gemma 2 and 3 27B scale by their query_pre_attn_scalar, n_embd /
    // n_heads (llama.cpp tells the member by its layer count, as
    // gemma_pytorch does).
    config.attention_scale = 1.0f / std::sqrt(float(config.n_embd / config.n_heads));
  }
  // llama.cpp: a shared layer reads the last layer of its kind that keeps
  // its own keys and values, which must be the two before the first shared.
  const int64_t shared = optional_count(metadata, "attention.shared_kv_layers", 0);
  const int64_t first_shared = config.n_layers - shared;
  if (shared > 0 && (first_shared < 2 || !sw.layers[size_t(first_shared - 2)] ||
                     sw.layers[size_t(first_shared - 1)])) {
    return unsupported("shared KV layers that do not follow a sliding and a global layer");
  }
  for (int64_t i = first_shared; i < config.n_layers; ++i) {
    config.kv_source[size_t(i)] = int32_t(first_shared - (sw.layers[size_t(i)] ? 2 : 1));
  }
  return {};
}

// DiffusionGemma's canvas and sampler defaults; the limits keep one step's
// work and a request's step count bounded whatever the file says.
Status read_diffusion(const gguf::Metadata& metadata, ModelConfig& config) {
  DiffusionConfig& d = config.diffusion;
  if (config.gemma.per_layer_embedding > 0) {
    return unsupported("a diffusion model with per-layer token embeddings");
  }
  d.canvas_length = metadata.get_or<int64_t>("diffusion.canvas_length", 0);
  if (d.canvas_length <= 0 || d.canvas_length > kMaxCanvas) {
    return invalid_format("diffusion.canvas_length must be between 1 and " +
                          std::to_string(kMaxCanvas));
  }
  d.max_steps = metadata.get_or<int64_t>("diffusion.eb_max_steps", d.max_steps);
  d.t_min = metadata.get_or<float>("diffusion.eb_t_min", d.t_min);
  d.t_max = metadata.get_or<float>("diffusion.eb_t_max", d.t_max);
  d.entropy_bound = metadata.get_or<float>("diffusion.eb_entropy_bound", d.entropy_bound);
  d.stability_steps =
      metadata.get_or<int64_t>("diffusion.eb_stability_threshold", d.stability_steps);
  d.confidence = metadata.get_or<float>("diffusion.eb_confidence_threshold", d.confidence);
  if (d.max_steps < 1 || d.max_steps > kMaxDiffusionSteps) {
    return invalid_format("diffusion.eb_max_steps must be between 1 and " +
                          std::to_string(kMaxDiffusionSteps));
  }
  if (!(d.t_min > 0.0f) || !(d.t_max >= d.t_min) || !std::isfinite(d.t_max)) {
    return invalid_format("diffusion.eb_t_min and eb_t_max must be positive, t_min <= t_max");
  }
  if (!(d.entropy_bound >= 0.0f) || !(d.confidence >= 0.0f) || d.stability_steps < 0) {
    return invalid_format("diffusion sampler thresholds must not be negative");
  }
  return {};
}

// An encoder's attention sees whole sequences unless the file says
// otherwise, which ingot does not run: llama.cpp's BERT graph is built for
// sequences run whole.
Status read_encoder(const gguf::Metadata& metadata, ModelConfig& config) {
  config.causal = metadata.get_or<bool>(metadata.arch_key("attention.causal"), false);
  if (config.causal) return unsupported("a causal encoder (attention.causal true)");
  config.norm_eps = optional_float(metadata, "attention.layer_norm_epsilon", 1e-12f);
  if (config.norm_eps <= 0.0f) return invalid_format("layer_norm_epsilon must be positive");
  return {};
}

// head_count_kv: one count, or one per layer (Gemma 4's global layers have
// fewer KV heads than its sliding ones).
Result<std::vector<int64_t>> read_kv_heads(const gguf::Metadata& metadata,
                                           const ModelConfig& config) {
  const std::string key = metadata.arch_key("attention.head_count_kv");
  const auto n_layers = size_t(config.n_layers);
  if (!metadata.has(key)) return std::vector<int64_t>(n_layers, config.n_heads);
  if (auto one = metadata.get<int64_t>(key); one.ok()) return std::vector<int64_t>(n_layers, *one);
  auto each = metadata.get<std::vector<int32_t>>(key);
  if (!each.ok()) return invalid_format(key + " must be a count or an array of counts");
  if (each->size() < n_layers) return invalid_format(key + " has fewer entries than block_count");
  return std::vector<int64_t>(each->begin(), each->begin() + ptrdiff_t(n_layers));
}

// One count per kind of layer: the global layers' (n_kv_heads) and the
// sliding layers'.
Status assign_kv_heads(const std::vector<int64_t>& per_layer, ModelConfig& config) {
  config.n_kv_heads = config.swa.kv_heads = 0;
  for (int64_t layer = 0; layer < config.n_layers; ++layer) {
    const int64_t count = per_layer[size_t(layer)];
    if (count <= 0) return invalid_format("head_count_kv must be positive");
    int64_t& kind = config.is_sliding(layer) ? config.swa.kv_heads : config.n_kv_heads;
    if (kind != 0 && kind != count) {
      return unsupported("head_count_kv that differs between layers of one kind");
    }
    kind = count;
  }
  if (config.n_kv_heads == 0) config.n_kv_heads = config.swa.kv_heads;
  if (config.swa.kv_heads == 0) config.swa.kv_heads = config.n_kv_heads;
  return {};
}

void index_layer_kinds(ModelConfig& config) {
  config.kind_index.assign(config.n_layers, 0);
  config.n_attention_layers = config.n_recurrent_layers = 0;
  for (int64_t i = 0; i < config.n_layers; ++i) {
    if (config.kv_source[size_t(i)] != i) {
      config.kind_index[i] = config.kind_index[size_t(config.kv_source[size_t(i)])];
      continue;
    }
    int64_t& count = config.is_recurrent(i) ? config.n_recurrent_layers : config.n_attention_layers;
    config.kind_index[i] = int32_t(count++);
  }
}

Status check_shapes(const ModelConfig& config) {
  for (int64_t kv_heads : {config.n_kv_heads, config.swa.kv_heads}) {
    if (config.n_heads % kv_heads != 0) {
      return invalid_format("attention.head_count must be a multiple of head_count_kv");
    }
    if (config.n_heads / kv_heads > 64) return unsupported("more than 64 query heads per KV head");
  }
  if (config.rms_eps <= 0.0f) return invalid_format("layer_norm_rms_epsilon must be positive");
  return {};
}

}  // namespace

Result<ModelConfig> ModelConfig::from_gguf(const gguf::GgufFile& file) {
  const gguf::Metadata& metadata = file.metadata();
  const std::string_view architecture = metadata.architecture();
  std::optional<ArchitectureTraits> traits = find_architecture(architecture);
  if (!traits) return unsupported("architecture '" + std::string(architecture) + "'");

  ModelConfig config;
  config.traits = *traits;
  config.name = metadata.get_or<std::string>("general.name", std::string(architecture));
  INGOT_ASSIGN_OR_RETURN(config.n_embd, required_count(metadata, "embedding_length"));
  INGOT_ASSIGN_OR_RETURN(config.n_layers, required_count(metadata, "block_count"));
  // Every per-layer table is sized by the count before any tensor is seen,
  // so a header alone must not name millions of layers; llama.cpp draws its
  // line at the same place.
  if (config.n_layers > kMaxLayers) {
    return unsupported("block_count over " + std::to_string(kMaxLayers));
  }
  // Multi-token-prediction layers follow the trunk's; the trunk runs alone.
  config.n_nextn_layers = optional_count(metadata, "nextn_predict_layers", 0);
  if (config.n_nextn_layers < 0) return invalid_format("nextn_predict_layers must not be negative");
  config.n_layers -= config.n_nextn_layers;
  if (config.n_layers <= 0) return invalid_format("no layers besides the prediction layers");
  if (config.traits.experts) {
    config.n_ff = optional_count(metadata, "feed_forward_length", 0);
  } else {
    INGOT_ASSIGN_OR_RETURN(config.n_ff, required_count(metadata, "feed_forward_length"));
  }
  INGOT_ASSIGN_OR_RETURN(config.n_heads, required_count(metadata, "attention.head_count"));
  INGOT_ASSIGN_OR_RETURN(std::vector<int64_t> kv_heads, read_kv_heads(metadata, config));
  config.head_dim =
      optional_count(metadata, "attention.key_length", config.n_embd / config.n_heads);
  if (optional_count(metadata, "attention.value_length", config.head_dim) != config.head_dim) {
    return unsupported("value heads of a different size than key heads");
  }
  if (config.head_dim <= 0) return invalid_format("key_length must be positive");
  config.context_length = optional_count(metadata, "context_length", 2048);
  config.rms_eps = optional_float(metadata, "attention.layer_norm_rms_epsilon", 1e-5f);
  config.pooling_type = optional_count(metadata, "pooling_type", -1);
  if (config.traits.encoder) INGOT_RETURN_IF_ERROR(read_encoder(metadata, config));
  INGOT_RETURN_IF_ERROR(read_rope(metadata, config));
  if (config.traits.hybrid) {
    INGOT_RETURN_IF_ERROR(read_hybrid_layers(metadata, config));
    read_rope_sections(metadata, /*interleaved=*/true, config);
  }
  // Gemma 4's mixture member is a gemma4 file that names its experts.
  if (config.traits.experts ||
      (config.traits.gemma && metadata.has(metadata.arch_key("expert_count")))) {
    INGOT_RETURN_IF_ERROR(read_experts(metadata, config));
  }
  config.kv_source.resize(size_t(config.n_layers));
  for (int64_t i = 0; i < config.n_layers; ++i) config.kv_source[size_t(i)] = int32_t(i);
  if (config.traits.gemma) INGOT_RETURN_IF_ERROR(read_gemma(metadata, config));
  if (config.traits.gpt_oss) INGOT_RETURN_IF_ERROR(read_gpt_oss(metadata, config));
  if (config.traits.diffusion) INGOT_RETURN_IF_ERROR(read_diffusion(metadata, config));
  INGOT_RETURN_IF_ERROR(assign_kv_heads(kv_heads, config));
  INGOT_RETURN_IF_ERROR(check_shapes(config));
  index_layer_kinds(config);

  const gguf::TensorInfo* embedding = file.find_tensor("token_embd.weight");
  if (embedding == nullptr || embedding->dims.size() != 2) {
    return invalid_format("missing or malformed tensor token_embd.weight");
  }
  config.n_vocab = embedding->dims[1];
  return config;
}

}  // namespace ingot::model
