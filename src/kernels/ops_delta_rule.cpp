#include "kernels/ops_delta_rule.h"

#include <cmath>

#include "kernels/dispatch.h"

namespace ingot::kernels {

void causal_conv_step(float* window, const float* x, const float* taps, int64_t channels,
                      int64_t kernel, float* y) {
  const int64_t history = kernel - 1;
  for (int64_t c = 0; c < channels; ++c) {
    float* past = window + c * history;
    const float* w = taps + c * kernel;
    const float current = x[c];
    float sum = 0.0f;
    for (int64_t i = 0; i < history; ++i) sum += w[i] * past[i];
    sum += w[history] * current;
    for (int64_t i = 0; i + 1 < history; ++i) past[i] = past[i + 1];
    if (history > 0) past[history - 1] = current;
    y[c] = sum;
  }
}

namespace scalar {

// Two passes over S: the recall S^T k, then the update of each row with
// the output's sum over the updated rows. exp(g) S^T k is the decayed
// state's recall.
void delta_rule_step(float* state, const float* q, const float* k, const float* v, float log_decay,
                     float beta, int64_t n, float* out) {
  const float decay = std::exp(log_decay);
  const float scale = 1.0f / std::sqrt(float(n));
  float delta[kMaxDeltaRuleSize];
  for (int64_t j = 0; j < n; ++j) delta[j] = 0.0f;
  for (int64_t i = 0; i < n; ++i) {
    const float* row = state + i * n;
    for (int64_t j = 0; j < n; ++j) delta[j] += row[j] * k[i];
  }
  for (int64_t j = 0; j < n; ++j) {
    delta[j] = (v[j] - decay * delta[j]) * beta;
    out[j] = 0.0f;
  }
  for (int64_t i = 0; i < n; ++i) {
    float* row = state + i * n;
    for (int64_t j = 0; j < n; ++j) {
      row[j] = decay * row[j] + k[i] * delta[j];
      out[j] += row[j] * q[i];
    }
  }
  for (int64_t j = 0; j < n; ++j) out[j] *= scale;
}

}  // namespace scalar

void delta_rule_step(float* state, const float* q, const float* k, const float* v, float log_decay,
                     float beta, int64_t n, float* out) {
  if (active_isa() == Isa::kAvx512) {
    return avx512::delta_rule_step(state, q, k, v, log_decay, beta, n, out);
  }
  scalar::delta_rule_step(state, q, k, v, log_decay, beta, n, out);
}

}  // namespace ingot::kernels
