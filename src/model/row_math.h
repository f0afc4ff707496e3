#pragma once
// The forward pass's row-major buffers: growing them, residual additions
// and a bias added to every row.

#include <cstdint>
#include <vector>

namespace ingot::model {

// Grows `buffer` to at least `size` elements; never shrinks it, so that
// steps allocate nothing once batch sizes settle.
template <typename T>
void grow(std::vector<T>& buffer, int64_t size) {
  if (int64_t(buffer.size()) < size) buffer.resize(size_t(size));
}

// x[i] += y[i] for n values.
inline void add_in_place(float* x, const float* y, int64_t n) {
  for (int64_t i = 0; i < n; ++i) x[i] += y[i];
}

// Adds `bias` to each of n_rows rows of bias.size() values; an empty bias
// (a file without one) adds nothing.
inline void add_bias(float* rows, const std::vector<float>& bias, int64_t n_rows) {
  if (bias.empty()) return;
  const auto n = int64_t(bias.size());
  for (int64_t r = 0; r < n_rows; ++r) add_in_place(rows + r * n, bias.data(), n);
}

}  // namespace ingot::model
