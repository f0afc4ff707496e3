#pragma once
// One attention layer's shape and choices, read from the config: Gemma's
// sliding-window layers have their own head size, KV heads and RoPE, and
// Gemma 4's last layers read an earlier layer's keys and values.

#include <cstdint>

#include "kernels/ops_attention.h"
#include "model/model_config.h"

namespace ingot::model {

struct AttentionLayer {
  int64_t head_dim = 0;
  int64_t q_dim = 0;
  int64_t kv_heads = 0;
  int64_t kv_dim = 0;
  int64_t kv_layer = 0;             // the KvCache layer it reads
  bool own_kv = true;               // and writes; else an earlier layer's
  int64_t window = 0;               // positions each query sees, its own included; 0: all
  bool sliding = false;             // rotates by the sliding-window layers' RoPE
  kernels::ScoreScale scale{1.0f};  // and Gemma 2's score cap
};

// Layer `layer` of the trunk.
AttentionLayer attention_layer(const ModelConfig& config, int64_t layer);

// A global layer on KV layer 0 of a cache of its own (the prediction block's).
AttentionLayer global_attention_layer(const ModelConfig& config);

}  // namespace ingot::model
