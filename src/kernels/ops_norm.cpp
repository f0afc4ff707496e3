#include "kernels/ops_norm.h"

#include <cmath>

#include "kernels/kernel_table.h"

namespace ingot::kernels {

namespace scalar {

void rms_norm(const float* x, const float* weight, float* y, int64_t n_rows, int64_t n, float eps) {
  for (int64_t r = 0; r < n_rows; ++r, x += n, y += n) {
    // The sum of squares runs in double: hidden sizes reach 8192 and the
    // norm must not depend on summation order beyond float rounding.
    double sum_of_squares = 0.0;
    for (int64_t i = 0; i < n; ++i) sum_of_squares += double(x[i]) * double(x[i]);
    const float mean = float(sum_of_squares / double(n));
    const float inverse_rms = 1.0f / std::sqrt(mean + eps);
    for (int64_t i = 0; i < n; ++i) y[i] = x[i] * inverse_rms * weight[i];
  }
}

}  // namespace scalar

// Encoders are small and their norms few; the mean and variance run in
// double as rms_norm's sum does, two passes as ggml_norm's.
void layer_norm(const float* x, const float* weight, const float* bias, float* y, int64_t n_rows,
                int64_t n, float eps) {
  for (int64_t r = 0; r < n_rows; ++r, x += n, y += n) {
    double sum = 0.0;
    for (int64_t i = 0; i < n; ++i) sum += x[i];
    const float mean = float(sum / double(n));
    double sum_of_squares = 0.0;
    for (int64_t i = 0; i < n; ++i) {
      const double centered = double(x[i] - mean);
      sum_of_squares += centered * centered;
    }
    const float scale = 1.0f / std::sqrt(float(sum_of_squares / double(n)) + eps);
    for (int64_t i = 0; i < n; ++i) {
      y[i] = (x[i] - mean) * scale * weight[i] + (bias != nullptr ? bias[i] : 0.0f);
    }
  }
}

// The norm runs on the calling thread between two matmuls, while the other
// threads wait, so the scalar loop's chain of dependent double adds is
// time the whole step loses.
void rms_norm(const float* x, const float* weight, float* y, int64_t n_rows, int64_t n, float eps) {
  active_kernels().rms_norm(x, weight, y, n_rows, n, eps);
}

}  // namespace ingot::kernels
