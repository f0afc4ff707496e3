#pragma once
// One chunk of the gated delta rule (ops_delta_rule.h's formulas), written
// once over the row operations of a path: Rows gives add_scaled(y, a, x, n)
// (y += a * x), scale(y, a, n) (y *= a) and dot(a, b, n). Every sum runs
// along a row of value lanes, in the order of the header's formulas: the
// recalls S0^T k_t and S0^T q_t, the triangular solve for the deltas, the
// outputs, the state.
//
// Included by the scalar path (ops_delta_rule.cpp) and the NEON one.

#include <cmath>
#include <cstdint>
#include <vector>

#include "kernels/ops_delta_rule.h"

namespace ingot::kernels {

template <class Rows>
void delta_rule_chunk_over_rows(float* state, const DeltaRuleRun& run, int64_t n) {
  const int64_t c = run.tokens;
  const float scale = 1.0f / std::sqrt(float(n));
  auto k = [&](int64_t t) { return run.k + t * run.qkv_stride; };
  auto q = [&](int64_t t) { return run.q + t * run.qkv_stride; };
  float G[kDeltaRuleChunk];
  for (int64_t t = 0; t < c; ++t) G[t] = (t ? G[t - 1] : 0.0f) + run.log_decay[t * run.gate_stride];
  thread_local std::vector<float> deltas, reads;
  deltas.assign(c * n, 0.0f);
  reads.assign(c * n, 0.0f);
  for (int64_t t = 0; t < c; ++t) {
    for (int64_t i = 0; i < n; ++i) {
      Rows::add_scaled(deltas.data() + t * n, k(t)[i], state + i * n, n);
      Rows::add_scaled(reads.data() + t * n, q(t)[i], state + i * n, n);
    }
  }
  for (int64_t t = 0; t < c; ++t) {
    const float beta = run.beta[t * run.gate_stride];
    float* d = deltas.data() + t * n;
    const float* v = run.v + t * run.qkv_stride;
    for (int64_t j = 0; j < n; ++j) d[j] = beta * (v[j] - std::exp(G[t]) * d[j]);
    for (int64_t s = 0; s < t; ++s) {
      const float a = beta * std::exp(G[t] - G[s]) * Rows::dot(k(t), k(s), n);
      Rows::add_scaled(d, -a, deltas.data() + s * n, n);
    }
  }
  for (int64_t t = 0; t < c; ++t) {
    float* o = run.out + t * run.out_stride;
    for (int64_t j = 0; j < n; ++j) o[j] = std::exp(G[t]) * reads[t * n + j];
    for (int64_t s = 0; s <= t; ++s) {
      const float a = std::exp(G[t] - G[s]) * Rows::dot(q(t), k(s), n);
      Rows::add_scaled(o, a, deltas.data() + s * n, n);
    }
    Rows::scale(o, scale, n);
  }
  const float last = G[c - 1];
  for (int64_t i = 0; i < n; ++i) {
    float* row = state + i * n;
    Rows::scale(row, std::exp(last), n);
    for (int64_t s = 0; s < c; ++s) {
      Rows::add_scaled(row, std::exp(last - G[s]) * k(s)[i], deltas.data() + s * n, n);
    }
  }
}

}  // namespace ingot::kernels
