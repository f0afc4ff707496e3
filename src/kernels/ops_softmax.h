#pragma once
// Softmax in place: x_i <- e^(x_i - max) / sum_j e^(x_j - max). Subtracting
// the max keeps every exponent <= 0, so nothing overflows.

#include <cstdint>

namespace ingot::kernels {

void softmax(float* x, int64_t n);

namespace scalar {
void softmax(float* x, int64_t n);
}  // namespace scalar

}  // namespace ingot::kernels
