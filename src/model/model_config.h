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

// A mixture-of-experts feed-forward: each token's router picks `used` of
// `count` experts (softmax, top `used`, weights renormalized to sum 1);
// the shared expert, n_ff wide, runs for every token under its own
// sigmoid gate.
struct ExpertConfig {
  int64_t count = 0;  // 0: a dense feed-forward
  int64_t used = 0;
  int64_t feed_forward = 0;  // per routed expert
};

struct ModelConfig {
  ArchitectureTraits traits;
  std::string name;     // general.name, for messages
  int64_t n_vocab = 0;  // rows of token_embd
  int64_t n_embd = 0;   // hidden size
  int64_t n_layers = 0;
  int64_t n_ff = 0;  // feed-forward width (a mixture of experts: the shared expert's)
  int64_t n_heads = 0;
  int64_t n_kv_heads = 0;      // grouped-query attention: n_heads is a multiple
  int64_t head_dim = 0;        // per head, for q, k and v; qwen3's is not n_embd / n_heads
  int64_t context_length = 0;  // the training context
  float rms_eps = 1e-5f;
  kernels::RopeParams rope;  // freq_factors are bound with the weights

  // Hybrid models: which layers are linear attention. Each layer has an
  // index among the layers of its kind, for the KV cache and the
  // recurrent state; empty `recurrent` means every layer is attention.
  std::vector<bool> recurrent;
  std::vector<int32_t> kind_index;
  int64_t n_attention_layers = 0;
  int64_t n_recurrent_layers = 0;
  LinearAttentionConfig linear;
  ExpertConfig experts;

  bool is_recurrent(int64_t layer) const { return !recurrent.empty() && recurrent[layer]; }

  int64_t q_dim() const { return n_heads * head_dim; }
  int64_t kv_dim() const { return n_kv_heads * head_dim; }
  int64_t group_size() const { return n_heads / n_kv_heads; }

  static Result<ModelConfig> from_gguf(const gguf::GgufFile& file);
};

}  // namespace ingot::model
