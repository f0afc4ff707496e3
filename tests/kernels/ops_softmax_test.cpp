// Softmax: scalar against known values, every SIMD path against scalar.

#include "kernels/ops_softmax.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "kernels/ops_test_support.h"

namespace ingot::kernels {
namespace {

using testing::expect_close;
using testing::kAwkwardLengths;
using testing::random_floats;

TEST(Softmax, ScalarSumsToOneAndKeepsOrder) {
  std::vector<float> x = {1.0f, 2.0f, 3.0f, 1000.0f, -1000.0f};
  scalar::softmax(x.data(), int64_t(x.size()));
  EXPECT_NEAR(x[3], 1.0f, 1e-6);
  EXPECT_EQ(x[4], 0.0f);
  std::vector<float> y = {0.0f, std::log(3.0f)};
  scalar::softmax(y.data(), 2);
  EXPECT_NEAR(y[0], 0.25f, 1e-6);
  EXPECT_NEAR(y[1], 0.75f, 1e-6);
}

TEST(Softmax, EveryPathMatchesScalar) {
  for (const KernelTable* path : testing::vector_paths()) {
    SCOPED_TRACE(isa_name(path->isa));
    for (int64_t n : kAwkwardLengths) {
      std::vector<float> expected = random_floats(n, 5.0f, 5), actual = expected;
      scalar::softmax(expected.data(), n);
      path->softmax(actual.data(), n);
      expect_close(actual, expected, 1e-6f);
    }
  }
}

// Masked entries (-inf) and ones far below the max get exactly zero on
// every path, wherever they fall in a register or its tail: AVX2 and NEON
// build 2^k in the exponent bits and must not leave e^-87 there.
TEST(Softmax, FarBelowTheMaxIsExactlyZeroOnEveryPath) {
  for (const KernelTable* path : testing::vector_paths()) {
    SCOPED_TRACE(isa_name(path->isa));
    for (int64_t n : kAwkwardLengths) {
      std::vector<float> x(n, -INFINITY);
      for (int64_t i = 1; i < n; i += 3) x[i] = -200.0f;
      x[n / 2] = 3.0f;
      path->softmax(x.data(), n);
      for (int64_t i = 0; i < n; ++i)
        EXPECT_EQ(x[i], i == n / 2 ? 1.0f : 0.0f) << "n=" << n << " i=" << i;
    }
  }
}

}  // namespace
}  // namespace ingot::kernels
