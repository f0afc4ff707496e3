#include "kernels/ops_exp_sum.h"

#include <cmath>

#include "kernels/kernel_table.h"

namespace ingot::kernels {

namespace scalar {

double sum_exp(const float* x, int64_t n, float shift) {
  double sum = 0.0;
  for (int64_t i = 0; i < n; ++i) sum += std::exp(static_cast<double>(x[i] - shift));
  return sum;
}

void exp_terms(const float* x, int64_t n, float shift, double* out) {
  for (int64_t i = 0; i < n; ++i) out[i] = std::exp(static_cast<double>(x[i] - shift));
}

}  // namespace scalar

// Top-p over the vocabulary weighs every logit: with libm's exp that was
// the largest part of its time.
double sum_exp(const float* x, int64_t n, float shift) {
  return active_kernels().sum_exp(x, n, shift);
}

void exp_terms(const float* x, int64_t n, float shift, double* out) {
  active_kernels().exp_terms(x, n, shift, out);
}

}  // namespace ingot::kernels
