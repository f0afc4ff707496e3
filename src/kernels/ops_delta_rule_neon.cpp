// The gated delta rule on NEON: the one-token step's two passes over the
// state, and a chunk's terms in the scalar path's order, each along a row
// of value lanes four columns at a time.
#include <arm_neon.h>

#include <cmath>
#include <vector>

#include "kernels/ops_delta_rule.h"

namespace ingot::kernels::neon {
namespace {

// y += a * x over n lanes.
inline void add_scaled(float* y, float a, const float* x, int64_t n) {
  int64_t j = 0;
  for (; j + 4 <= n; j += 4) vst1q_f32(y + j, vfmaq_n_f32(vld1q_f32(y + j), vld1q_f32(x + j), a));
  for (; j < n; ++j) y[j] += a * x[j];
}

// y *= a over n lanes.
inline void scale_lanes(float* y, float a, int64_t n) {
  int64_t j = 0;
  for (; j + 4 <= n; j += 4) vst1q_f32(y + j, vmulq_n_f32(vld1q_f32(y + j), a));
  for (; j < n; ++j) y[j] *= a;
}

inline float dot(const float* a, const float* b, int64_t n) {
  float32x4_t sum = vdupq_n_f32(0.0f);
  int64_t i = 0;
  for (; i + 4 <= n; i += 4) sum = vfmaq_f32(sum, vld1q_f32(a + i), vld1q_f32(b + i));
  float total = vaddvq_f32(sum);
  for (; i < n; ++i) total += a[i] * b[i];
  return total;
}

}  // namespace

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

void delta_rule_chunk(float* state, const DeltaRuleRun& run, int64_t n) {
  const int64_t c = run.tokens;
  const float scale = 1.0f / std::sqrt(float(n));
  auto k = [&](int64_t t) { return run.k + t * run.qkv_stride; };
  auto q = [&](int64_t t) { return run.q + t * run.qkv_stride; };
  float G[kDeltaRuleChunk];
  for (int64_t t = 0; t < c; ++t) G[t] = (t ? G[t - 1] : 0.0f) + run.log_decay[t * run.gate_stride];
  thread_local std::vector<float> deltas, reads;
  deltas.assign(c * n, 0.0f);
  reads.assign(c * n, 0.0f);
  // The recalls S0^T k_t and S0^T q_t.
  for (int64_t t = 0; t < c; ++t) {
    for (int64_t i = 0; i < n; ++i) {
      add_scaled(deltas.data() + t * n, k(t)[i], state + i * n, n);
      add_scaled(reads.data() + t * n, q(t)[i], state + i * n, n);
    }
  }
  // The triangular solve for the deltas.
  for (int64_t t = 0; t < c; ++t) {
    const float beta = run.beta[t * run.gate_stride];
    float* d = deltas.data() + t * n;
    const float* v = run.v + t * run.qkv_stride;
    const float decay = std::exp(G[t]);
    for (int64_t j = 0; j < n; ++j) d[j] = beta * (v[j] - decay * d[j]);
    for (int64_t s = 0; s < t; ++s) {
      add_scaled(d, -(beta * std::exp(G[t] - G[s]) * dot(k(t), k(s), n)), deltas.data() + s * n, n);
    }
  }
  // The outputs.
  for (int64_t t = 0; t < c; ++t) {
    float* o = run.out + t * run.out_stride;
    const float decay = std::exp(G[t]);
    for (int64_t j = 0; j < n; ++j) o[j] = decay * reads[t * n + j];
    for (int64_t s = 0; s <= t; ++s) {
      add_scaled(o, std::exp(G[t] - G[s]) * dot(q(t), k(s), n), deltas.data() + s * n, n);
    }
    scale_lanes(o, scale, n);
  }
  // The state after the run.
  const float last = G[c - 1];
  for (int64_t i = 0; i < n; ++i) {
    float* row = state + i * n;
    scale_lanes(row, std::exp(last), n);
    for (int64_t s = 0; s < c; ++s) {
      add_scaled(row, std::exp(last - G[s]) * k(s)[i], deltas.data() + s * n, n);
    }
  }
}

}  // namespace ingot::kernels::neon
