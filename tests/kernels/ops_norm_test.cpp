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

TEST(RmsNorm, EveryPathMatchesScalar) {
  for (const KernelTable* path : testing::vector_paths()) {
    SCOPED_TRACE(isa_name(path->isa));
    for (int64_t n : kAwkwardLengths) {
      std::vector<float> x = random_floats(3 * n, 4.0f, 5), w = random_floats(n, 1.5f, 6);
      std::vector<float> expected(3 * n), actual(3 * n);
      scalar::rms_norm(x.data(), w.data(), expected.data(), 3, n, 1e-6f);
      path->rms_norm(x.data(), w.data(), actual.data(), 3, n, 1e-6f);
      expect_close(actual, expected, 1e-6f);
      // In place, as q and k norms run.
      path->rms_norm(x.data(), w.data(), x.data(), 3, n, 1e-6f);
      expect_close(x, expected, 1e-6f);
    }
  }
}

// Against the definition, with a row whose mean is far from zero (the
// variance must be of the centered values) and in place.
TEST(LayerNorm, CentersScalesAndShifts) {
  const int64_t n = 37;
  std::vector<float> x = random_floats(2 * n, 3.0f, 7), w = random_floats(n, 1.0f, 8),
                     b = random_floats(n, 0.5f, 9);
  for (int64_t i = 0; i < n; ++i) x[n + i] += 100.0f;
  std::vector<float> y(2 * n);
  layer_norm(x.data(), w.data(), b.data(), y.data(), 2, n, 1e-12f);
  for (int64_t r = 0; r < 2; ++r) {
    double mean = 0, variance = 0;
    for (int64_t i = 0; i < n; ++i) mean += x[r * n + i];
    mean /= n;
    for (int64_t i = 0; i < n; ++i) variance += (x[r * n + i] - mean) * (x[r * n + i] - mean);
    variance /= n;
    for (int64_t i = 0; i < n; ++i) {
      const double expected = (x[r * n + i] - mean) / std::sqrt(variance + 1e-12) * w[i] + b[i];
      EXPECT_NEAR(y[r * n + i], expected, 2e-5);
    }
  }
  layer_norm(x.data(), w.data(), nullptr, x.data(), 2, n, 1e-12f);
  for (int64_t i = 0; i < 2 * n; ++i) EXPECT_NEAR(x[i], y[i] - b[i % n], 2e-5);
}

}  // namespace
}  // namespace ingot::kernels
