// RMSNorm against its definition.

#include "kernels/ops_norm.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "kernels/ops_test_support.h"

namespace ingot::kernels {
namespace {

using testing::expect_close;
using testing::kAwkwardLengths;
using testing::random_floats;

TEST(RmsNorm, MatchesTheDefinition) {
  const int64_t n = 37;
  std::vector<float> x = random_floats(2 * n, 3.0f, 1), w = random_floats(n, 1.0f, 2);
  std::vector<float> y(2 * n);
  rms_norm(x.data(), w.data(), y.data(), 2, n, 1e-5f);
  for (int64_t r = 0; r < 2; ++r) {
    double squares = 0;
    for (int64_t i = 0; i < n; ++i) squares += x[r * n + i] * x[r * n + i];
    const double inverse_rms = 1.0 / std::sqrt(squares / n + 1e-5);
    for (int64_t i = 0; i < n; ++i) {
      EXPECT_NEAR(y[r * n + i], x[r * n + i] * inverse_rms * w[i], 1e-5);
    }
  }
}

TEST(RmsNorm, Avx512MatchesScalar) {
  SKIP_WITHOUT_AVX512();
  for (int64_t n : kAwkwardLengths) {
    std::vector<float> x = random_floats(3 * n, 4.0f, 5), w = random_floats(n, 1.5f, 6);
    std::vector<float> expected(3 * n), actual(3 * n);
    scalar::rms_norm(x.data(), w.data(), expected.data(), 3, n, 1e-6f);
    avx512::rms_norm(x.data(), w.data(), actual.data(), 3, n, 1e-6f);
    expect_close(actual, expected, 1e-6f);
    // In place, as q and k norms run.
    avx512::rms_norm(x.data(), w.data(), x.data(), 3, n, 1e-6f);
    expect_close(x, expected, 1e-6f);
  }
}

}  // namespace
}  // namespace ingot::kernels
