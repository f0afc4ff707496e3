#pragma once
// The model shapes ingot-synth can write: real models' hyperparameters
// (Qwen2.5-0.5B, Qwen3-0.6B, Llama-3.2-1B) and small ones for tests.
// Llama 3.2's long-context RoPE scaling (its rope_freqs.weight factors) is
// left out: the synthetic llama uses plain RoPE at base 500000.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ingot::synth {

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
};

std::optional<Shape> find_shape(std::string_view name);
std::vector<std::string_view> shape_names();

}  // namespace ingot::synth
