#pragma once
// The model shapes ingot-synth can write: real models' hyperparameters
// (Qwen2.5-0.5B, Qwen3-0.6B, Llama-3.2-1B) and small ones for tests.
// Llama 3.2's long-context RoPE scaling (its rope_freqs.weight factors) is
// left out: the synthetic llama uses plain RoPE at base 500000.

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ingot::synth {

// Qwen3.5's linear-attention layers: a gated delta rule over key heads of
// state_size and value heads of state_size, after a causal convolution.
struct LinearAttentionShape {
  int64_t conv_kernel = 0;  // 0: the shape has no linear-attention layers
  int64_t state_size = 0;   // per head, keys and values alike
  int64_t key_heads = 0;    // ssm.group_count
  int64_t value_heads = 0;  // ssm.time_step_rank
};

// Mixture-of-experts feed-forward (qwen35moe): each token runs the
// experts_used best of `experts` experts, plus one shared expert.
struct ExpertShape {
  int64_t experts = 0;  // 0: a dense feed-forward
  int64_t experts_used = 0;
  int64_t expert_feed_forward = 0;
  int64_t shared_feed_forward = 0;
};

// Gemma 4: sliding-window layers between global ones, each kind with its
// own head size and RoPE; the last layers read earlier layers' keys and
// values; small per-layer token embeddings feed every layer.
struct GemmaShape {
  int64_t global_every = 0;  // every global_every-th layer is global; 0: not a Gemma 4 shape
  int64_t sliding_window = 0;
  int64_t sliding_head_dim = 0;
  double sliding_rope_base = 0;
  int64_t shared_kv_layers = 0;
  int64_t per_layer_embedding = 0;
  float final_softcap = 0;
  // The global layers' KV heads when fewer than the sliding layers' (the
  // file's head_count_kv is then one count per layer); 0: the same.
  int64_t global_kv_heads = 0;
  // Global layers without a value projection, their keys read as values.
  bool global_keys_are_values = false;
  // Gemma 3's long-context members: the global layers' linear RoPE scaling
  // factor (rope.scaling.*; the sliding layers are never scaled); 0: none.
  float global_rope_linear = 0;
  // Gemma 2's score cap (attn_logit_softcapping); 0: not written.
  float attention_softcap = 0;
  // DiffusionGemma's canvas (diffusion.canvas_length); 0: not a diffusion model.
  int64_t canvas_length = 0;

  bool is_sliding(int64_t layer) const { return (layer + 1) % global_every != 0; }
};

struct Shape {
  std::string_view name;
  std::string_view architecture;  // general.architecture
  int64_t hidden;
  int64_t layers;
  int64_t heads;
  int64_t kv_heads;
  int64_t head_dim;
  int64_t feed_forward;
  bool qkv_bias;     // qwen2
  bool qk_norm;      // qwen3: per-head RMSNorm of q and k
  bool tied_output;  // output.weight is token_embd.weight
  double rope_base;
  int64_t context;
  float rms_epsilon;
  // Hybrid models: every full_attention_interval-th layer is full (gated)
  // attention, the others linear attention; 0 for plain transformers.
  int64_t full_attention_interval = 0;
  LinearAttentionShape linear{};
  int64_t rope_dims = 0;                   // rotated dimensions per head; 0: all of them
  std::array<int32_t, 4> rope_sections{};  // multimodal RoPE sections, all 0 when unused
  ExpertShape moe{};
  GemmaShape gemma{};
  // Qwen3.5's multi-token-prediction block after the trunk's layers
  // (nextn_predict_layers): a full-attention block fed the embedding of a
  // token and the trunk's hidden state before it.
  int64_t nextn_layers = 0;
  // Phi-3's LongRoPE: short and long per-pair factors and the context the
  // short ones serve (rope.scaling.original_context_length); 0: none.
  int64_t rope_original_context = 0;
  // YaRN (gpt-oss): the factor and the context it was trained at before
  // the extension (rope.scaling.*); 0: none.
  float yarn_factor = 0;
  int64_t yarn_original_context = 0;
  // An embedding model's pooling (<arch>.pooling_type, llama.cpp's
  // numbering: 1 mean, 2 CLS, 3 last); 0: not written (a chat model).
  int64_t pooling_type = 0;
  // A reranker's classification head (cls.output, one row per label; BERT's
  // also a dense cls layer before it); 0: none.
  int64_t classifier_outputs = 0;

  int64_t head_dim_of(int64_t layer) const {
    return gemma.global_every > 0 && gemma.is_sliding(layer) ? gemma.sliding_head_dim : head_dim;
  }
  int64_t kv_heads_of(int64_t layer) const {
    const bool global = gemma.global_every > 0 && !gemma.is_sliding(layer);
    return global && gemma.global_kv_heads > 0 ? gemma.global_kv_heads : kv_heads;
  }
  bool has_value_projection(int64_t layer) const {
    return !(gemma.global_every > 0 && !gemma.is_sliding(layer) && gemma.global_keys_are_values);
  }
  bool has_own_kv(int64_t layer) const { return layer < layers - gemma.shared_kv_layers; }

  // Gemma 4's layout: its own and DiffusionGemma's.
  bool is_gemma4() const { return architecture == "gemma4" || gemma.canvas_length > 0; }

  bool is_recurrent_layer(int64_t layer) const {
    return full_attention_interval > 0 && (layer + 1) % full_attention_interval != 0;
  }
};

std::optional<Shape> find_shape(std::string_view name);
std::vector<std::string_view> shape_names();

}  // namespace ingot::synth
