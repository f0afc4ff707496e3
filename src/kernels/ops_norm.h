#pragma once
// RMSNorm: y = x / sqrt(mean(x^2) + eps) * weight, over one row of n values.
// LayerNorm (encoders): y = (x - mean(x)) / sqrt(var(x) + eps) * weight + bias.

#include <cstdint>

namespace ingot::kernels {

// Normalizes `n_rows` rows of `n` values, rows `n` floats apart. y may be x.
void rms_norm(const float* x, const float* weight, float* y, int64_t n_rows, int64_t n, float eps);
// Rows as rms_norm's; bias may be null.
void layer_norm(const float* x, const float* weight, const float* bias, float* y, int64_t n_rows,
                int64_t n, float eps);

namespace scalar {
void rms_norm(const float* x, const float* weight, float* y, int64_t n_rows, int64_t n, float eps);
}  // namespace scalar

}  // namespace ingot::kernels
