#pragma once
// A model's hyperparameters, read from GGUF metadata ("<arch>.block_count",
// ...) and checked for consistency before any tensor is bound.

#include <cstdint>
#include <string>

#include "gguf/reader.h"
#include "kernels/ops_rope.h"
#include "model/architecture.h"
#include "util/status.h"

namespace ingot::model {

struct ModelConfig {
  ArchitectureTraits traits;
  std::string name;     // general.name, for messages
  int64_t n_vocab = 0;  // rows of token_embd
  int64_t n_embd = 0;   // hidden size
  int64_t n_layers = 0;
  int64_t n_ff = 0;  // feed-forward width
  int64_t n_heads = 0;
  int64_t n_kv_heads = 0;      // grouped-query attention: n_heads is a multiple
  int64_t head_dim = 0;        // per head, for q, k and v; qwen3's is not n_embd / n_heads
  int64_t context_length = 0;  // the training context
  float rms_eps = 1e-5f;
  kernels::RopeParams rope;  // freq_factors are bound with the weights

  int64_t q_dim() const { return n_heads * head_dim; }
  int64_t kv_dim() const { return n_kv_heads * head_dim; }
  int64_t group_size() const { return n_heads / n_kv_heads; }

  static Result<ModelConfig> from_gguf(const gguf::GgufFile& file);
};

}  // namespace ingot::model
