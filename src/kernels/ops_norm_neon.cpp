#include <arm_neon.h>

#include <cmath>

#include "kernels/ops_norm.h"

namespace ingot::kernels::neon {
namespace {

// The squares of 4 floats, widened to double and added into two
// accumulators of 2 (the sum runs in double, as in the scalar path).
inline void add_squares(float32x4_t v, float64x2_t& low, float64x2_t& high) {
  const float64x2_t lo = vcvt_f64_f32(vget_low_f32(v));
  const float64x2_t hi = vcvt_high_f64_f32(v);
  low = vfmaq_f64(low, lo, lo);
  high = vfmaq_f64(high, hi, hi);
}

double sum_of_squares(const float* x, int64_t n) {
  float64x2_t acc[4] = {vdupq_n_f64(0.0), vdupq_n_f64(0.0), vdupq_n_f64(0.0), vdupq_n_f64(0.0)};
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    add_squares(vld1q_f32(x + i), acc[0], acc[1]);
    add_squares(vld1q_f32(x + i + 4), acc[2], acc[3]);
  }
  double sum = vaddvq_f64(vaddq_f64(vaddq_f64(acc[0], acc[1]), vaddq_f64(acc[2], acc[3])));
  for (; i < n; ++i) sum += double(x[i]) * double(x[i]);
  return sum;
}

}  // namespace

void rms_norm(const float* x, const float* weight, float* y, int64_t n_rows, int64_t n, float eps) {
  for (int64_t r = 0; r < n_rows; ++r, x += n, y += n) {
    const float mean = float(sum_of_squares(x, n) / double(n));
    const float inverse_rms = 1.0f / std::sqrt(mean + eps);
    int64_t i = 0;
    for (; i + 4 <= n; i += 4) {
      const float32x4_t v = vmulq_n_f32(vld1q_f32(x + i), inverse_rms);
      vst1q_f32(y + i, vmulq_f32(v, vld1q_f32(weight + i)));
    }
    for (; i < n; ++i) y[i] = x[i] * inverse_rms * weight[i];
  }
}

}  // namespace ingot::kernels::neon
