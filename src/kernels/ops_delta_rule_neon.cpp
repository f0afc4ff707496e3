// The gated delta rule's one-token step on NEON: the scalar path's two
// passes over the state, four columns at a time.
#include <arm_neon.h>

#include <cmath>

#include "kernels/ops_delta_rule.h"

namespace ingot::kernels::neon {

void delta_rule_step(float* state, const float* q, const float* k, const float* v, float log_decay,
                     float beta, int64_t n, float* out) {
  const float decay = std::exp(log_decay);
  const float scale = 1.0f / std::sqrt(float(n));
  float delta[kMaxDeltaRuleSize];
  const int64_t vector_end = n / 4 * 4;
  for (int64_t j = 0; j < n; ++j) delta[j] = 0.0f;
  for (int64_t i = 0; i < n; ++i) {
    const float* row = state + i * n;
    int64_t j = 0;
    for (; j < vector_end; j += 4) {
      vst1q_f32(delta + j, vfmaq_n_f32(vld1q_f32(delta + j), vld1q_f32(row + j), k[i]));
    }
    for (; j < n; ++j) delta[j] += row[j] * k[i];
  }
  for (int64_t j = 0; j < n; ++j) {
    delta[j] = (v[j] - decay * delta[j]) * beta;
    out[j] = 0.0f;
  }
  for (int64_t i = 0; i < n; ++i) {
    float* row = state + i * n;
    int64_t j = 0;
    for (; j < vector_end; j += 4) {
      const float32x4_t updated =
          vfmaq_n_f32(vmulq_n_f32(vld1q_f32(row + j), decay), vld1q_f32(delta + j), k[i]);
      vst1q_f32(row + j, updated);
      vst1q_f32(out + j, vfmaq_n_f32(vld1q_f32(out + j), updated, q[i]));
    }
    for (; j < n; ++j) {
      row[j] = decay * row[j] + k[i] * delta[j];
      out[j] += row[j] * q[i];
    }
  }
  for (int64_t j = 0; j < n; ++j) out[j] *= scale;
}

}  // namespace ingot::kernels::neon
