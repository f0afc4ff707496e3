// SiLU, GELU and SwiGLU: scalar against the definitions, every SIMD path against scalar on
// awkward lengths.

#include "kernels/ops_activation.h"

#include <gtest/gtest.h>

#include <algorithm>
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

// gpt-oss's unit: the gate clamped above only, up on both sides, and up
// shifted by one.
TEST(Activations, ClampedSwiGLUClampsTheGateAboveAndUpOnBothSides) {
  const std::vector<float> gate = {-20.0f, -1.0f, 0.0f, 2.0f, 7.0f, 30.0f};
  const std::vector<float> up = {3.0f, -9.0f, 5.0f, 0.5f, 100.0f, -100.0f};
  std::vector<float> out(gate.size());
  swiglu_clamped(gate.data(), up.data(), out.data(), int64_t(gate.size()), 1.702f, 7.0f);
  auto expected = [](float g, float u) {
    g = std::min(g, 7.0f);
    u = std::clamp(u, -7.0f, 7.0f);
    return double(g) / (1.0 + std::exp(-1.702 * g)) * (u + 1.0);
  };
  for (size_t i = 0; i < gate.size(); ++i) {
    EXPECT_NEAR(out[i], expected(gate[i], up[i]), 1e-5 * std::max(1.0, double(std::fabs(out[i]))))
        << i;
  }
  EXPECT_NEAR(out[4], out[5] * 8.0f / -6.0f, 1e-4);  // gate 30 acts as 7; up 100 as 7, -100 as -7
  EXPECT_NEAR(out[2], 0.0f, 1e-7);
}

TEST(Activations, EveryPathMatchesScalar) {
  for (const KernelTable* path : testing::vector_paths()) {
    SCOPED_TRACE(isa_name(path->isa));
    for (int64_t n : kAwkwardLengths) {
      std::vector<float> gate = random_floats(n, 6.0f, 3), up = random_floats(n, 2.0f, 4);
      std::vector<float> expected(n), actual(n);
      scalar::silu(gate.data(), expected.data(), n);
      path->silu(gate.data(), actual.data(), n);
      expect_close(actual, expected, 1e-6f);
      scalar::swiglu(gate.data(), up.data(), expected.data(), n);
      path->swiglu(gate.data(), up.data(), actual.data(), n);
      expect_close(actual, expected, 1e-6f);
      scalar::gelu(gate.data(), expected.data(), n);
      path->gelu(gate.data(), actual.data(), n);
      expect_close(actual, expected, 2e-6f);
    }
  }
}

}  // namespace
}  // namespace ingot::kernels
