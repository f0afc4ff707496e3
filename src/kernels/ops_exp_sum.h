#pragma once
// Exponentials in double for sampling's probability masses over a whole
// vocabulary (150k logits per token): e^(x_i - shift) with x_i - shift
// taken in float, as the sampler's scalar code takes it, then widened.
// The SIMD paths are within 2 ulp of std::exp; -inf gives 0,
// NaN stays NaN.

#include <cstdint>

namespace ingot::kernels {

// sum_i e^(x_i - shift), summed in double.
double sum_exp(const float* x, int64_t n, float shift);
// out_i = e^(x_i - shift).
void exp_terms(const float* x, int64_t n, float shift, double* out);

namespace scalar {
double sum_exp(const float* x, int64_t n, float shift);
void exp_terms(const float* x, int64_t n, float shift, double* out);
}  // namespace scalar

}  // namespace ingot::kernels
