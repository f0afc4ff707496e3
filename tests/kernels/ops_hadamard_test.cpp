// The fast Walsh-Hadamard rotation against the matrix llama.cpp builds
// (Sylvester's recursion from 1/sqrt(n)), and H H = I.

#include "kernels/ops_hadamard.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "kernels/ops_test_support.h"

namespace ingot::kernels {
namespace {

std::vector<double> sylvester(int64_t n) {
  std::vector<double> h(size_t(n * n));
  h[0] = 1.0 / std::sqrt(double(n));
  for (int64_t s = 1; s < n; s *= 2) {
    for (int64_t i = 0; i < s; ++i) {
      for (int64_t j = 0; j < s; ++j) {
        const double v = h[size_t(i * n + j)];
        h[size_t((i + s) * n + j)] = v;
        h[size_t(i * n + j + s)] = v;
        h[size_t((i + s) * n + j + s)] = -v;
      }
    }
  }
  return h;
}

TEST(HadamardRotate, EachRunIsTheMatrixTimesIt) {
  for (int64_t n : {64, 128, 256}) {
    const std::vector<float> x = testing::random_floats(3 * n, 1.0f, uint32_t(n));
    std::vector<float> rotated = x;
    hadamard_rotate(rotated.data(), 3 * n, n);
    const std::vector<double> h = sylvester(n);
    for (int64_t run = 0; run < 3; ++run) {
      for (int64_t i = 0; i < n; ++i) {
        double expected = 0;
        for (int64_t j = 0; j < n; ++j) expected += h[size_t(i * n + j)] * x[size_t(run * n + j)];
        ASSERT_NEAR(rotated[size_t(run * n + i)], expected, 1e-5) << n << " " << run << " " << i;
      }
    }
  }
}

TEST(HadamardRotate, RotatingTwiceGivesTheInputBack) {
  const std::vector<float> x = testing::random_floats(256, 4.0f, 5);
  std::vector<float> twice = x;
  hadamard_rotate(twice.data(), 256, 64);
  hadamard_rotate(twice.data(), 256, 64);
  for (size_t i = 0; i < x.size(); ++i) ASSERT_NEAR(twice[i], x[i], 1e-5);
}

}  // namespace
}  // namespace ingot::kernels
