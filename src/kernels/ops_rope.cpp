#include "kernels/ops_rope.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <utility>

namespace ingot::kernels {
namespace {

// The pair index whose wavelength fits `rotations` times into the original
// context: pairs below it rotate faster (keep extrapolated angles), pairs
// above it slower (take interpolated ones).
float yarn_pair_for_rotations(const RopeParams& p, float rotations) {
  return float(p.n_rot) *
         std::log(float(p.original_context) / (rotations * 2.0f * std::numbers::pi_v<float>)) /
         (2.0f * std::log(p.freq_base));
}

}  // namespace

Rope::Rope(RopeParams params) : params_(std::move(params)) {
  const int n_pairs = params_.n_rot / 2;
  inverse_frequency_.resize(n_pairs);
  extrapolation_mix_.assign(n_pairs, 0.0f);
  for (int i = 0; i < n_pairs; ++i) {
    float frequency = std::pow(params_.freq_base, -2.0f * float(i) / float(params_.n_rot));
    if (!params_.freq_factors.empty()) frequency /= params_.freq_factors[i];
    if (!params_.still_pairs.empty() && params_.still_pairs[i]) frequency = 0.0f;
    inverse_frequency_[i] = frequency;
  }
  magnitude_ = params_.attn_factor;
  if (params_.ext_factor != 0.0f && params_.original_context > 0) {
    const float low =
        std::max(0.0f, std::floor(yarn_pair_for_rotations(params_, params_.beta_fast)));
    const float high = std::min(float(params_.n_rot - 1),
                                std::ceil(yarn_pair_for_rotations(params_, params_.beta_slow)));
    for (int i = 0; i < n_pairs; ++i) {
      const float y = (float(i) - low) / std::max(0.001f, high - low);
      extrapolation_mix_[i] = (1.0f - std::clamp(y, 0.0f, 1.0f)) * params_.ext_factor;
    }
    magnitude_ *= 1.0f + 0.1f * std::log(1.0f / params_.freq_scale);
  }
}

void Rope::angles(int64_t position, float* cos_theta, float* sin_theta) const {
  const int n_pairs = params_.n_rot / 2;
  for (int i = 0; i < n_pairs; ++i) {
    const float extrapolated = float(position) * inverse_frequency_[i];
    const float interpolated = extrapolated * params_.freq_scale;
    const float mix = extrapolation_mix_[i];
    const float theta = interpolated * (1.0f - mix) + extrapolated * mix;
    cos_theta[i] = std::cos(theta) * magnitude_;
    sin_theta[i] = std::sin(theta) * magnitude_;
  }
}

void Rope::rotate(float* x, int64_t n_heads, int64_t head_dim, RopeLayout layout,
                  const float* cos_theta, const float* sin_theta) const {
  const int n_pairs = params_.n_rot / 2;
  // Adjacent pairs sit one apart and step by two; halves sit n_pairs apart.
  const int64_t partner = layout == RopeLayout::kAdjacentPairs ? 1 : n_pairs;
  const int64_t step = layout == RopeLayout::kAdjacentPairs ? 2 : 1;
  for (int64_t h = 0; h < n_heads; ++h, x += head_dim) {
    for (int i = 0; i < n_pairs; ++i) {
      float& a = x[i * step];
      float& b = x[i * step + partner];
      const float a0 = a, b0 = b;
      a = a0 * cos_theta[i] - b0 * sin_theta[i];
      b = a0 * sin_theta[i] + b0 * cos_theta[i];
    }
  }
}

}  // namespace ingot::kernels
