#pragma once
// The gated delta rule (ops_delta_rule.h's formulas) written once for the
// paths: a chunk over the row operations of a path (Rows gives
// add_scaled(y, a, x, n) (y += a * x), scale(y, a, n) (y *= a) and
// dot(a, b, n)), whose sums run along a row of value lanes in the order of
// the header's formulas (the recalls S0^T k_t and S0^T q_t, the triangular
// solve for the deltas, the outputs, the state); LaneRows, those row
// operations over a vector policy V (ops_float_shape.h's Floats, with
// fmadd and fnmadd); and the one-token step over V's lanes.
//
// Included by the scalar path (ops_delta_rule.cpp) and the SIMD ones.

#include <algorithm>
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

// Row operations a register of V at a time, the tail through a part.
template <class V>
struct LaneRows {
  using F = typename V::F;

  static void add_scaled(float* y, float a, const float* x, int64_t n) {
    const F av = V::broadcast(a);
    int64_t j = 0;
    for (; j + V::kLanes <= n; j += V::kLanes) {
      V::store(y + j, V::fmadd(av, V::load(x + j), V::load(y + j)));
    }
    if (j < n) {
      const int64_t count = n - j;
      const F sum =
          V::fmadd(av, V::load_part(x + j, count, 0.0f), V::load_part(y + j, count, 0.0f));
      V::store_part(y + j, sum, count);
    }
  }
  static void scale(float* y, float a, int64_t n) {
    const F av = V::broadcast(a);
    int64_t j = 0;
    for (; j + V::kLanes <= n; j += V::kLanes) V::store(y + j, V::mul(V::load(y + j), av));
    if (j < n) V::store_part(y + j, V::mul(V::load_part(y + j, n - j, 0.0f), av), n - j);
  }
  static float dot(const float* a, const float* b, int64_t n) {
    F sum = V::broadcast(0.0f);
    int64_t i = 0;
    for (; i + V::kLanes <= n; i += V::kLanes) sum = V::fmadd(V::load(a + i), V::load(b + i), sum);
    if (i < n) {
      sum = V::fmadd(V::load_part(a + i, n - i, 0.0f), V::load_part(b + i, n - i, 0.0f), sum);
    }
    return V::reduce_add(sum);
  }
};

// The one-token step: for each register of value lanes, the recall over
// every row of the state, then the rows' update and the output's sum. A
// register's column of rows is small, so both passes over it stay in L1.
template <class V>
void delta_rule_step_lanes(float* state, const float* q, const float* k, const float* v,
                           float log_decay, float beta, int64_t n, float* out) {
  using F = typename V::F;
  const F decay = V::broadcast(std::exp(log_decay));
  const F beta_v = V::broadcast(beta);
  const F scale = V::broadcast(1.0f / std::sqrt(float(n)));
  for (int64_t j = 0; j < n; j += V::kLanes) {
    const int64_t count = std::min<int64_t>(V::kLanes, n - j);
    const auto load = [&](const float* p) {
      return count == V::kLanes ? V::load(p) : V::load_part(p, count, 0.0f);
    };
    const auto store = [&](float* p, F x) {
      count == V::kLanes ? V::store(p, x) : V::store_part(p, x, count);
    };
    F recall = V::broadcast(0.0f);
    for (int64_t i = 0; i < n; ++i) {
      recall = V::fmadd(load(state + i * n + j), V::broadcast(k[i]), recall);
    }
    const F delta = V::mul(V::fnmadd(decay, recall, load(v + j)), beta_v);
    F read = V::broadcast(0.0f);
    for (int64_t i = 0; i < n; ++i) {
      float* row = state + i * n + j;
      const F updated = V::fmadd(decay, load(row), V::mul(V::broadcast(k[i]), delta));
      store(row, updated);
      read = V::fmadd(updated, V::broadcast(q[i]), read);
    }
    store(out + j, V::mul(read, scale));
  }
}

}  // namespace ingot::kernels
