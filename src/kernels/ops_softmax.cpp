#include "kernels/ops_softmax.h"

#include <algorithm>
#include <cmath>

#include "kernels/kernel_table.h"

namespace ingot::kernels {

namespace scalar {

void softmax(float* x, int64_t n) {
  if (n <= 0) return;
  const float max = *std::max_element(x, x + n);
  double sum = 0.0;
  for (int64_t i = 0; i < n; ++i) {
    x[i] = std::exp(x[i] - max);
    sum += x[i];
  }
  const float inverse_sum = float(1.0 / sum);
  for (int64_t i = 0; i < n; ++i) x[i] *= inverse_sum;
}

}  // namespace scalar

// Sampling takes a softmax over the whole vocabulary (150k entries) per token.
void softmax(float* x, int64_t n) {
  active_kernels().softmax(x, n);
}

}  // namespace ingot::kernels
