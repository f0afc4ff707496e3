#include "kernels/ops_delta_rule.h"

#include <cmath>

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

void delta_rule_step(float* state, const float* q, const float* k, const float* v, float log_decay,
                     float beta, int64_t n, float* out) {
  const float decay = std::exp(log_decay);
  const float scale = 1.0f / std::sqrt(float(n));
  for (int64_t j = 0; j < n; ++j) {
    float* row = state + j * n;
    float recalled = 0.0f;
    for (int64_t i = 0; i < n; ++i) {
      row[i] *= decay;
      recalled += row[i] * k[i];
    }
    const float delta = (v[j] - recalled) * beta;
    float read = 0.0f;
    for (int64_t i = 0; i < n; ++i) {
      row[i] += k[i] * delta;
      read += row[i] * q[i];
    }
    out[j] = read * scale;
  }
}

}  // namespace ingot::kernels
