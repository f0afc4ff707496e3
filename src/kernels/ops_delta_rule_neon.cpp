// The gated delta rule on NEON: the one-token step's two passes over the
// state, and a chunk (ops_delta_rule_chunk.h) over rows four columns at a
// time.
#include <arm_neon.h>

#include <cmath>

#include "kernels/ops_delta_rule.h"
#include "kernels/ops_delta_rule_chunk.h"

namespace ingot::kernels::neon {
namespace {

// Four lanes of a row at a time.
struct NeonRows {
  static void add_scaled(float* y, float a, const float* x, int64_t n) {
    int64_t j = 0;
    for (; j + 4 <= n; j += 4) {
      vst1q_f32(y + j, vfmaq_n_f32(vld1q_f32(y + j), vld1q_f32(x + j), a));
    }
    for (; j < n; ++j) y[j] += a * x[j];
  }
  static void scale(float* y, float a, int64_t n) {
    int64_t j = 0;
    for (; j + 4 <= n; j += 4) vst1q_f32(y + j, vmulq_n_f32(vld1q_f32(y + j), a));
    for (; j < n; ++j) y[j] *= a;
  }
  static float dot(const float* a, const float* b, int64_t n) {
    float32x4_t sum = vdupq_n_f32(0.0f);
    int64_t i = 0;
    for (; i + 4 <= n; i += 4) sum = vfmaq_f32(sum, vld1q_f32(a + i), vld1q_f32(b + i));
    float total = vaddvq_f32(sum);
    for (; i < n; ++i) total += a[i] * b[i];
    return total;
  }
};

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
  delta_rule_chunk_over_rows<NeonRows>(state, run, n);
}

}  // namespace ingot::kernels::neon
