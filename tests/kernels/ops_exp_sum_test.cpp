// Exponential sums for sampling: every SIMD path against std::exp, term by
// term and summed, over the awkward lengths and the edge values.

#include "kernels/ops_exp_sum.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "kernels/ops_test_support.h"

namespace ingot::kernels {
namespace {

using testing::kAwkwardLengths;
using testing::random_floats;

TEST(ExpSum, EveryPathsTermsAreWithinTwoUlpOfStdExp) {
  for (const KernelTable* path : testing::vector_paths()) {
    SCOPED_TRACE(isa_name(path->isa));
    for (int64_t n : kAwkwardLengths) {
      // Logits spread far enough that the terms span the double range and
      // reach underflow.
      const std::vector<float> x = random_floats(n, 200.0f, uint32_t(n));
      const float shift = 3.5f;
      std::vector<double> expected(n), actual(n, -1.0);
      scalar::exp_terms(x.data(), n, shift, expected.data());
      path->exp_terms(x.data(), n, shift, actual.data());
      for (int64_t i = 0; i < n; ++i) {
        EXPECT_NEAR(actual[i], expected[i], 4.5e-16 * expected[i]) << "x " << x[i];
      }
      const double sum = scalar::sum_exp(x.data(), n, shift);
      EXPECT_NEAR(path->sum_exp(x.data(), n, shift), sum, 1e-14 * sum) << n;
    }
  }
}

void expect_exact_edge_values(const KernelTable& path) {
  SCOPED_TRACE(isa_name(path.isa));
  const float inf = std::numeric_limits<float>::infinity();
  const std::vector<float> x = {0.0f,    -inf,   -700.0f,  -745.2f, -800.0f, 88.0f,
                                -1e-30f, 1e-30f, -0.3466f, 0.3466f, 709.0f,  -87.5f};
  std::vector<double> out(x.size());
  path.exp_terms(x.data(), int64_t(x.size()), 0.0f, out.data());
  for (size_t i = 0; i < x.size(); ++i) {
    const double want = std::exp(double(x[i]));
    if (want == 0.0 || std::isinf(want)) {
      EXPECT_EQ(out[i], want) << x[i];
    } else {
      EXPECT_NEAR(out[i], want, 4.5e-16 * want) << x[i];
    }
  }
  const std::vector<float> nan = {std::numeric_limits<float>::quiet_NaN()};
  double term = 0.0;
  path.exp_terms(nan.data(), 1, 0.0f, &term);
  EXPECT_TRUE(std::isnan(term));
}

TEST(ExpSum, EdgeValuesOnEveryPath) {
  expect_exact_edge_values(testing::scalar_path());
  for (const KernelTable* path : testing::vector_paths()) expect_exact_edge_values(*path);
}

TEST(ExpSum, EmptyInputSumsToZero) {
  EXPECT_EQ(sum_exp(nullptr, 0, 1.0f), 0.0);
}

}  // namespace
}  // namespace ingot::kernels
