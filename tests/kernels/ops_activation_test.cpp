// SiLU, GELU and SwiGLU: scalar against the definitions, AVX-512 against scalar on
// awkward lengths.

#include "kernels/ops_activation.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "kernels/ops_test_support.h"

namespace ingot::kernels {
namespace {

using testing::expect_close;
using testing::kAwkwardLengths;
using testing::random_floats;

TEST(Activations, ScalarMatchesTheDefinitions) {
  std::vector<float> x = {-20.0f, -3.0f, -0.5f, 0.0f, 0.5f, 3.0f, 20.0f}, y(x.size());
  scalar::silu(x.data(), y.data(), int64_t(x.size()));
  for (size_t i = 0; i < x.size(); ++i) EXPECT_NEAR(y[i], x[i] / (1 + std::exp(-x[i])), 1e-6);
  scalar::gelu(x.data(), y.data(), int64_t(x.size()));
  EXPECT_NEAR(y[3], 0.0f, 1e-7);
  EXPECT_NEAR(y[5], 2.99636f, 1e-4);    // tanh-form GELU(3)
  EXPECT_NEAR(y[2], -0.154286f, 1e-5);  // tanh-form GELU(-0.5)
}

TEST(Activations, Avx512MatchesScalar) {
  SKIP_WITHOUT_AVX512();
  for (int64_t n : kAwkwardLengths) {
    std::vector<float> gate = random_floats(n, 6.0f, 3), up = random_floats(n, 2.0f, 4);
    std::vector<float> expected(n), actual(n);
    scalar::silu(gate.data(), expected.data(), n);
    avx512::silu(gate.data(), actual.data(), n);
    expect_close(actual, expected, 1e-6f);
    scalar::swiglu(gate.data(), up.data(), expected.data(), n);
    avx512::swiglu(gate.data(), up.data(), actual.data(), n);
    expect_close(actual, expected, 1e-6f);
  }
}

}  // namespace
}  // namespace ingot::kernels
