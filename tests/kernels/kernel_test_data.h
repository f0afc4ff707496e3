#pragma once
// Random inputs for the kernel tests: fixed seeds, so failures reproduce.

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "kernels/element_type.h"
#include "kernels/quantize.h"

namespace ingot::kernels::testing {

// Normally distributed values, like weights and activations, with a few
// larger outliers as real activations have.
inline std::vector<float> random_floats(int64_t n, uint32_t seed, float scale = 1.0f) {
  std::mt19937 rng(seed);
  std::normal_distribution<float> normal(0.0f, scale);
  std::vector<float> v(static_cast<size_t>(n));
  for (auto& x : v) x = normal(rng);
  for (int64_t i = 0; i < n; i += 97) v[static_cast<size_t>(i)] *= 6.0f;
  return v;
}

// rows x cols values quantized row by row into `type`.
inline std::vector<uint8_t> quantize_matrix(ElementType type, const std::vector<float>& x,
                                            int64_t rows, int64_t cols) {
  const size_t row_size = *row_bytes(type, cols);
  std::vector<uint8_t> out(row_size * static_cast<size_t>(rows));
  for (int64_t r = 0; r < rows; ++r) {
    quantize_row(type, x.data() + r * cols, out.data() + r * row_size, cols);
  }
  return out;
}

// Every weight type matmul supports, for parameterized tests.
inline const std::vector<ElementType>& matmul_types() {
  using T = ElementType;
  static const std::vector<ElementType> types = {
      T::kF32,  T::kF16,  T::kBF16, T::kQ4_0,   T::kQ4_1,   T::kQ5_0,
      T::kQ5_1, T::kQ8_0, T::kQ8_1, T::kQ2_K,   T::kQ3_K,   T::kQ4_K,
      T::kQ5_K, T::kQ6_K, T::kQ8_K, T::kIQ4_NL, T::kIQ4_XS, T::kMXFP4};
  return types;
}

inline std::string type_param_name(const ::testing::TestParamInfo<ElementType>& info) {
  return std::string(element_type_name(info.param));
}

}  // namespace ingot::kernels::testing
