#pragma once
// Rotary position embedding. Each pair of dimensions (a, b) of a query or
// key head is rotated by an angle proportional to the token's position:
//   a' = a cos(theta) - b sin(theta),  b' = a sin(theta) + b cos(theta)
// with theta_i = position * base^(-2i / n_rot) for pair i < n_rot / 2.
// Llama pairs adjacent dimensions (2i, 2i+1); NeoX-style models (Qwen)
// pair the two halves (i, i + n_rot/2). Dimensions past n_rot are kept.

#include <cstdint>
#include <vector>

namespace ingot::kernels {

enum class RopeLayout { kAdjacentPairs, kHalves };

struct RopeParams {
  int n_rot = 0;  // rotated dimensions per head (even)
  float freq_base = 10000.0f;
  // Position interpolation: theta is multiplied by freq_scale (1 / the
  // linear or YaRN scaling factor; 1 when the model is not scaled).
  float freq_scale = 1.0f;
  // YaRN: mixes interpolated and extrapolated angles per pair, ramping
  // between the pairs that rotate beta_fast and beta_slow times over the
  // original context; 0 disables it.
  float ext_factor = 0.0f;
  float attn_factor = 1.0f;  // scales cos and sin (YaRN's magnitude correction)
  float beta_fast = 32.0f;
  float beta_slow = 1.0f;
  int original_context = 0;  // YaRN's training context length
  // Per-pair divisors of the frequency (Llama 3.1's rope_freqs), or empty.
  std::vector<float> freq_factors;
  // Pairs that never turn, or empty: multimodal RoPE's fourth section,
  // whose position is 0 for text.
  std::vector<bool> still_pairs;
};

// The angles of every pair at one position, precomputed once per token and
// shared by every head of q and k.
class Rope {
 public:
  Rope() = default;
  explicit Rope(RopeParams params);

  int n_rot() const { return params_.n_rot; }

  // cos_theta and sin_theta receive n_rot / 2 values each.
  void angles(int64_t position, float* cos_theta, float* sin_theta) const;

  // Rotates n_heads heads of head_dim values, heads head_dim floats apart.
  void rotate(float* x, int64_t n_heads, int64_t head_dim, RopeLayout layout,
              const float* cos_theta, const float* sin_theta) const;

 private:
  RopeParams params_;
  std::vector<float> inverse_frequency_;  // base^(-2i/n_rot) / freq_factor_i
  std::vector<float> extrapolation_mix_;  // YaRN's ramp per pair, times ext_factor
  float magnitude_ = 1.0f;
};

}  // namespace ingot::kernels
