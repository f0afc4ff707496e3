#pragma once
// A model's hyperparameters, read from GGUF metadata ("<arch>.block_count",
// ...) and checked for consistency before any tensor is bound.

#include <cstdint>
#include <string>
#include <vector>

#include "gguf/reader.h"
#include "kernels/ops_rope.h"
#include "model/architecture.h"
#include "util/status.h"

namespace ingot::model {

// A hybrid model's linear-attention layers (Qwen3.5): a causal convolution
// over the projected q, k and v, then a gated delta rule per value head over
// a state_size x state_size state. Value head h reads key head
// h % key_heads, as llama.cpp pairs them.
struct LinearAttentionConfig {
  int64_t conv_kernel = 0;
  int64_t state_size = 0;
  int64_t key_heads = 0;
  int64_t value_heads = 0;

  int64_t key_dim() const { return key_heads * state_size; }
  int64_t value_dim() const { return value_heads * state_size; }
  int64_t conv_channels() const { return 2 * key_dim() + value_dim(); }
  // Floats of one sequence's state in one layer.
  int64_t conv_state_floats() const { return (conv_kernel - 1) * conv_channels(); }
  int64_t delta_state_floats() const { return value_heads * state_size * state_size; }
};

// How a router's scores become the chosen experts' weights: a softmax over
// every expert, the top `used` renormalized to sum 1 (Qwen, Gemma 4); or
// the top `used` scores, then a softmax over those alone (gpt-oss).
enum class ExpertGating { kSoftmaxThenTopK, kTopKThenSoftmax };

// An expert's gated unit: act(gate) * up with act SiLU or GELU; or
// gpt-oss's clamped form, g = min(gate, limit), u = clamp(up, -limit, limit),
// g sigmoid(alpha g) (u + 1).
enum class ExpertActivation { kSiLU, kGELU, kClampedSwiGLU };

// A mixture-of-experts feed-forward: each token's router picks `used` of
// `count` experts; the shared expert, n_ff wide, runs for every token under
// its own sigmoid gate.
struct ExpertConfig {
  int64_t count = 0;  // 0: a dense feed-forward
  int64_t used = 0;
  int64_t feed_forward = 0;  // per routed expert
  ExpertGating gating = ExpertGating::kSoftmaxThenTopK;
  ExpertActivation activation = ExpertActivation::kSiLU;
};

// Sliding-window layers (Gemma 2, 3 and 4, gpt-oss): each position sees
// the last `window` positions, its own included, with the kind's own head
// size, KV head count and RoPE, between global layers.
struct SlidingWindowConfig {
  std::vector<bool> layers;  // per layer: whether it slides
  int64_t window = 0;
  int64_t head_dim = 0;
  int64_t kv_heads = 0;  // the global layers' is n_kv_heads
  kernels::RopeParams rope;
};

// Gemma's own parts; in Gemma 4 the last layers read the keys and values
// of earlier layers of their kind instead of keeping their own.
struct GemmaConfig {
  int64_t per_layer_embedding = 0;  // width of each layer's token embedding; 0: none
  float final_softcap = 0.0f;       // logits = c tanh(logits / c) when set
  float attention_softcap = 0.0f;   // Gemma 2: scores = c tanh(scores / c) when set
};

// DiffusionGemma's canvas and the defaults of its entropy-bounded sampler
// (diffusion.* keys, not prefixed by the architecture; where the file is
// silent, transformers' DiffusionGemmaGenerationMixin's defaults): each
// canvas is denoised in at most max_steps steps at temperatures falling
// from t_max to t_min; a step keeps the lowest-entropy positions whose
// entropies sum within entropy_bound; the canvas is done once its argmax
// held for stability_steps steps and its mean entropy fell under
// confidence.
struct DiffusionConfig {
  int64_t canvas_length = 0;  // 0: not a diffusion model
  int64_t max_steps = 48;
  float t_min = 0.4f;
  float t_max = 0.8f;
  float entropy_bound = 0.1f;
  int64_t stability_steps = 1;
  float confidence = 0.005f;
};

struct ModelConfig {
  ArchitectureTraits traits;
  std::string name;            // general.name, for messages
  int64_t n_vocab = 0;         // rows of token_embd
  int64_t n_embd = 0;          // hidden size
  int64_t n_layers = 0;        // the trunk's, which forward() runs
  int64_t n_nextn_layers = 0;  // multi-token-prediction blocks after them (Qwen3.5)
  int64_t n_ff = 0;            // feed-forward width (a mixture of experts: the shared expert's)
  int64_t n_heads = 0;
  int64_t n_kv_heads = 0;      // grouped-query attention: n_heads is a multiple (see n_kv_heads_of)
  int64_t head_dim = 0;        // per head, for q, k and v; qwen3's is not n_embd / n_heads
  int64_t context_length = 0;  // the training context
  float rms_eps = 1e-5f;
  kernels::RopeParams rope;  // freq_factors are bound with the weights
  // LongRoPE (Phi-3): the factors for contexts beyond rope_original_context;
  // rope.freq_factors holds the short ones until then.
  std::vector<float> long_rope_factors;
  std::vector<float> short_rope_factors;
  int64_t rope_original_context = 0;

  // Hybrid models: which layers are linear attention. Each layer has an
  // index among the layers of its kind, for the KV cache and the
  // recurrent state; empty `recurrent` means every layer is attention.
  std::vector<bool> recurrent;
  std::vector<int32_t> kind_index;
  int64_t n_attention_layers = 0;
  int64_t n_recurrent_layers = 0;
  LinearAttentionConfig linear;
  ExpertConfig experts;
  SlidingWindowConfig swa;
  GemmaConfig gemma;
  DiffusionConfig diffusion;
  // The layer whose keys and values each layer reads: itself, or for a
  // shared-KV layer an earlier one. kind_index of a shared layer is its
  // source's.
  std::vector<int32_t> kv_source;
  float attention_scale = 0.0f;  // 0: 1 / sqrt(head size)
  // How an embedding model pools its hidden states (<arch>.pooling_type,
  // llama.cpp's numbering: 0 none, 1 mean, 2 CLS, 3 last, 4 rank); -1: unset.
  int64_t pooling_type = -1;
  // Whether a token sees only its sequence's positions up to its own, or
  // (an encoder's, attention.causal false) the whole sequence.
  bool causal = true;
  // An encoder's LayerNorm epsilon (attention.layer_norm_epsilon).
  float norm_eps = 1e-12f;
  // A reranker's classification head: the scores it gives per sequence
  // (llama.cpp's n_cls_out, the count of classifier.output_labels); 0: none.
  int64_t classifier_outputs = 0;

  bool is_sliding(int64_t layer) const { return !swa.layers.empty() && swa.layers[size_t(layer)]; }
  int64_t head_dim_of(int64_t layer) const { return is_sliding(layer) ? swa.head_dim : head_dim; }
  int64_t n_kv_heads_of(int64_t layer) const {
    return is_sliding(layer) ? swa.kv_heads : n_kv_heads;
  }
  int64_t kv_dim_of(int64_t layer) const { return n_kv_heads_of(layer) * head_dim_of(layer); }

  bool is_recurrent(int64_t layer) const { return !recurrent.empty() && recurrent[layer]; }

  int64_t q_dim() const { return n_heads * head_dim; }
  int64_t kv_dim() const { return n_kv_heads * head_dim; }

  static Result<ModelConfig> from_gguf(const gguf::GgufFile& file);
};

}  // namespace ingot::model
