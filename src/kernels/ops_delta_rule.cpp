#include "kernels/ops_delta_rule.h"

#include <algorithm>
#include <cmath>

#include "kernels/kernel_table.h"
#include "kernels/shapes/ops_delta_rule_shape.h"

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

namespace {

// Plain loops along a row.
struct ScalarRows {
  static void add_scaled(float* y, float a, const float* x, int64_t n) {
    for (int64_t j = 0; j < n; ++j) y[j] += a * x[j];
  }
  static void scale(float* y, float a, int64_t n) {
    for (int64_t j = 0; j < n; ++j) y[j] *= a;
  }
  static float dot(const float* a, const float* b, int64_t n) {
    float sum = 0.0f;
    for (int64_t i = 0; i < n; ++i) sum += a[i] * b[i];
    return sum;
  }
};

}  // namespace

void delta_rule_chunk(float* state, const DeltaRuleRun& run, int64_t n) {
  delta_rule_chunk_over_rows<ScalarRows>(state, run, n);
}

}  // namespace scalar

void delta_rule_run(float* state, const DeltaRuleRun& run, int64_t n) {
  if (run.tokens == 1) {
    return delta_rule_step(state, run.q, run.k, run.v, run.log_decay[0], run.beta[0], n, run.out);
  }
  for (int64_t first = 0; first < run.tokens; first += kDeltaRuleChunk) {
    DeltaRuleRun chunk = run;
    chunk.q += first * run.qkv_stride;
    chunk.k += first * run.qkv_stride;
    chunk.v += first * run.qkv_stride;
    chunk.log_decay += first * run.gate_stride;
    chunk.beta += first * run.gate_stride;
    chunk.out += first * run.out_stride;
    chunk.tokens = std::min(kDeltaRuleChunk, run.tokens - first);
    active_kernels().delta_rule_chunk(state, chunk, n);
  }
}

void delta_rule_step(float* state, const float* q, const float* k, const float* v, float log_decay,
                     float beta, int64_t n, float* out) {
  active_kernels().delta_rule_step(state, q, k, v, log_decay, beta, n, out);
}

}  // namespace ingot::kernels
