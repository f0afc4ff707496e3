#include <arm_neon.h>

#include <cmath>

#include "kernels/ops_softmax.h"
#include "kernels/ops_vector_math_neon.h"

namespace ingot::kernels::neon {
namespace {

float max_of(const float* x, int64_t n) {
  float32x4_t max = vdupq_n_f32(-INFINITY);
  int64_t i = 0;
  for (; i + 4 <= n; i += 4) max = vmaxq_f32(max, vld1q_f32(x + i));
  float m = vmaxvq_f32(max);
  for (; i < n; ++i) m = std::fmax(m, x[i]);
  return m;
}

}  // namespace

void softmax(float* x, int64_t n) {
  if (n <= 0) return;
  const float32x4_t max = vdupq_n_f32(max_of(x, n));
  float32x4_t sum = vdupq_n_f32(0.0f);
  int64_t i = 0;
  for (; i + 4 <= n; i += 4) {
    const float32x4_t e = exp_ps(vsubq_f32(vld1q_f32(x + i), max));
    vst1q_f32(x + i, e);
    sum = vaddq_f32(sum, e);
  }
  float tail_sum = 0.0f;
  if (i < n) {
    // Lanes past the tail hold e^(0 - max) from the zeros: only the stored ones count.
    store_tail(x + i, exp_ps(vsubq_f32(load_tail(x + i, n - i), max)), n - i);
    for (int64_t j = i; j < n; ++j) tail_sum += x[j];
  }
  const float inverse_sum = 1.0f / (vaddvq_f32(sum) + tail_sum);
  for (i = 0; i + 4 <= n; i += 4) vst1q_f32(x + i, vmulq_n_f32(vld1q_f32(x + i), inverse_sum));
  for (; i < n; ++i) x[i] *= inverse_sum;
}

}  // namespace ingot::kernels::neon
