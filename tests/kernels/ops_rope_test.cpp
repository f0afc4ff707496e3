// RoPE: both layouts against the rotation written out; linear, YaRN and
// per-pair frequency scaling.

#include "kernels/ops_rope.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "kernels/ops_test_support.h"

namespace ingot::kernels {
namespace {

using testing::expect_close;
using testing::kAwkwardLengths;
using testing::random_floats;

RopeParams rope_params(int n_rot, float freq_base, float freq_scale = 1.0f) {
  RopeParams params;
  params.n_rot = n_rot;
  params.freq_base = freq_base;
  params.freq_scale = freq_scale;
  return params;
}

// Rotates one head by the rotation matrix written out, pair by pair.
std::vector<float> rotate_by_definition(std::vector<float> x, int n_rot, RopeLayout layout,
                                        double base, double position) {
  for (int i = 0; i < n_rot / 2; ++i) {
    const double theta = position * std::pow(base, -2.0 * i / n_rot);
    const int a = layout == RopeLayout::kAdjacentPairs ? 2 * i : i;
    const int b = layout == RopeLayout::kAdjacentPairs ? 2 * i + 1 : i + n_rot / 2;
    const double xa = x[a], xb = x[b];
    x[a] = float(xa * std::cos(theta) - xb * std::sin(theta));
    x[b] = float(xa * std::sin(theta) + xb * std::cos(theta));
  }
  return x;
}

TEST(Rope, BothLayoutsMatchTheDefinition) {
  const int head_dim = 24, n_rot = 16;  // the last 8 dimensions are not rotated
  Rope rope(rope_params(n_rot, 10000.0f));
  std::vector<float> cos(n_rot / 2), sin(n_rot / 2);
  for (RopeLayout layout : {RopeLayout::kAdjacentPairs, RopeLayout::kHalves}) {
    for (int64_t position : {0, 1, 5, 300}) {
      std::vector<float> x = random_floats(head_dim, 1.0f, 6);
      std::vector<float> expected = rotate_by_definition(x, n_rot, layout, 10000.0, position);
      rope.angles(position, cos.data(), sin.data());
      rope.rotate(x.data(), 1, head_dim, layout, cos.data(), sin.data());
      expect_close(x, expected, 2e-5f);
    }
  }
}

TEST(Rope, LinearScalingDividesThePosition) {
  Rope scaled(rope_params(8, 10000.0f, 0.25f));
  Rope plain(rope_params(8, 10000.0f));
  std::vector<float> c1(4), s1(4), c2(4), s2(4);
  scaled.angles(40, c1.data(), s1.data());
  plain.angles(10, c2.data(), s2.data());
  expect_close(c1, c2, 1e-6f);
  expect_close(s1, s2, 1e-6f);
}

TEST(Rope, YarnKeepsFastPairsAndInterpolatesSlowOnes) {
  RopeParams params = rope_params(64, 10000.0f, 0.25f);
  params.ext_factor = 1.0f;
  params.original_context = 4096;
  Rope yarn(params);
  Rope plain(rope_params(64, 10000.0f));
  Rope interpolated(rope_params(64, 10000.0f, 0.25f));
  std::vector<float> cy(32), sy(32), cp(32), sp(32), ci(32), si(32);
  yarn.angles(1000, cy.data(), sy.data());
  plain.angles(1000, cp.data(), sp.data());
  interpolated.angles(1000, ci.data(), si.data());
  const float magnitude = 1.0f + 0.1f * std::log(4.0f);
  // Pair 0 rotates far more than beta_fast times over 4096 positions.
  EXPECT_NEAR(cy[0], cp[0] * magnitude, 1e-5);
  EXPECT_NEAR(sy[0], sp[0] * magnitude, 1e-5);
  // The last pair rotates less than beta_slow times.
  EXPECT_NEAR(cy[31], ci[31] * magnitude, 1e-5);
  EXPECT_NEAR(sy[31], si[31] * magnitude, 1e-5);
}

TEST(Rope, FreqFactorsDivideEachPairsFrequency) {
  RopeParams params = rope_params(4, 100.0f);
  params.freq_factors = {1.0f, 8.0f};
  Rope factored(params);
  std::vector<float> cos(2), sin(2);
  factored.angles(16, cos.data(), sin.data());
  EXPECT_NEAR(cos[0], std::cos(16.0f), 1e-5);
  EXPECT_NEAR(cos[1], std::cos(16.0f / 100.0f / 8.0f * 10.0f), 1e-5);
}

}  // namespace
}  // namespace ingot::kernels
