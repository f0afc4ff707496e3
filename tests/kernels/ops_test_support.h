#pragma once
// Random inputs and comparisons shared by the ops tests.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "kernels/kernel_table.h"

namespace ingot::kernels::testing {

inline constexpr int64_t kAwkwardLengths[] = {1, 3, 7, 15, 16, 17, 31, 33, 64, 100, 257, 1000};

inline std::vector<float> random_floats(int64_t n, float scale, uint32_t seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<float> normal(0.0f, scale);
  std::vector<float> v(n);
  for (float& x : v) x = normal(rng);
  return v;
}

inline void expect_close(const std::vector<float>& actual, const std::vector<float>& expected,
                         float relative) {
  ASSERT_EQ(actual.size(), expected.size());
  for (size_t i = 0; i < actual.size(); ++i) {
    EXPECT_NEAR(actual[i], expected[i], relative * (1.0f + std::fabs(expected[i]))) << "at " << i;
  }
}

// The tables of the paths this CPU runs besides the scalar reference: each
// test holds every one of them against the scalar table.
inline std::vector<const KernelTable*> vector_paths() {
  std::vector<const KernelTable*> paths;
  for (Isa isa : kAllIsas) {
    const KernelTable* table = kernel_table(isa);
    if (isa != Isa::kScalar && table != nullptr) paths.push_back(table);
  }
  return paths;
}

inline const KernelTable& scalar_path() {
  return *kernel_table(Isa::kScalar);
}

}  // namespace ingot::kernels::testing
