// The delta rule and the causal convolution against their definitions,
// written out with the state as a plain key-by-value matrix.

#include "kernels/ops_delta_rule.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "kernels/ops_test_support.h"

namespace ingot::kernels {
namespace {

std::vector<float> random_values(size_t n, std::mt19937& rng, float scale = 1.0f) {
  std::normal_distribution<float> normal(0.0f, scale);
  std::vector<float> v(n);
  for (float& x : v) x = normal(rng);
  return v;
}

TEST(DeltaRule, MatchesTheRecurrenceOverSeveralTokens) {
  constexpr int64_t n = 8;
  std::mt19937 rng(7);
  std::vector<float> state(n * n, 0.0f);  // what the kernel keeps: S[i][j] at i * n + j
  std::vector<std::vector<double>> S(n, std::vector<double>(n, 0.0));  // S[key][value]
  for (int token = 0; token < 5; ++token) {
    auto q = random_values(n, rng), k = random_values(n, rng), v = random_values(n, rng);
    const float g = -0.3f * float(token + 1), beta = 0.25f + 0.1f * float(token);
    std::vector<float> out(n);
    delta_rule_step(state.data(), q.data(), k.data(), v.data(), g, beta, n, out.data());
    // S <- exp(g) S;  d = beta (v - S^T k);  S <- S + k d^T;  o = S^T q / sqrt(n)
    for (auto& row : S)
      for (double& s : row) s *= std::exp(double(g));
    std::vector<double> d(n);
    for (int64_t j = 0; j < n; ++j) {
      double recalled = 0;
      for (int64_t i = 0; i < n; ++i) recalled += S[i][j] * k[i];
      d[j] = beta * (v[j] - recalled);
    }
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = 0; j < n; ++j) S[i][j] += k[i] * d[j];
    for (int64_t j = 0; j < n; ++j) {
      double o = 0;
      for (int64_t i = 0; i < n; ++i) o += S[i][j] * q[i];
      EXPECT_NEAR(out[j], o / std::sqrt(double(n)), 1e-5) << "token " << token << " j " << j;
    }
  }
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j) EXPECT_NEAR(state[i * n + j], S[i][j], 1e-5);
}

void expect_step_matches_scalar_on_every_tail_shape(const KernelTable& path) {
  SCOPED_TRACE(isa_name(path.isa));
  for (int64_t n : {1, 7, 16, 33, 64, 128, 200}) {
    std::mt19937 rng{uint32_t(n)};
    auto start = random_values(static_cast<size_t>(n * n), rng, 0.1f);
    std::vector<float> a = start, b = start;
    for (int token = 0; token < 4; ++token) {
      auto q = random_values(static_cast<size_t>(n), rng),
           k = random_values(static_cast<size_t>(n), rng),
           v = random_values(static_cast<size_t>(n), rng);
      std::vector<float> out_a(static_cast<size_t>(n)), out_b(static_cast<size_t>(n));
      scalar::delta_rule_step(a.data(), q.data(), k.data(), v.data(), -0.2f, 0.6f, n, out_a.data());
      path.delta_rule_step(b.data(), q.data(), k.data(), v.data(), -0.2f, 0.6f, n, out_b.data());
      for (int64_t j = 0; j < n; ++j) {
        ASSERT_NEAR(out_a[j], out_b[j], 1e-4f * (1.0f + std::fabs(out_a[j]))) << n << " " << j;
      }
    }
    for (size_t i = 0; i < a.size(); ++i) {
      ASSERT_NEAR(a[i], b[i], 1e-4f * (1.0f + std::fabs(a[i]))) << n << " " << i;
    }
  }
}

TEST(DeltaRule, EveryPathMatchesScalarOnEveryTailShape) {
  for (const KernelTable* path : testing::vector_paths()) {
    expect_step_matches_scalar_on_every_tail_shape(*path);
  }
}

// A run's inputs laid out as the model lays them out: q, k and v of a
// token in one row of a wider matrix, the gates in rows of their own.
struct RunInputs {
  int64_t n, tokens, stride, gate_stride = 3;
  std::vector<float> rows, log_decays, betas, outs;

  RunInputs(int64_t n_, int64_t tokens_, std::mt19937& rng, float decay_scale)
      : n(n_), tokens(tokens_), stride(3 * n_ + 5) {
    rows = random_values(static_cast<size_t>(tokens * stride), rng);
    for (int64_t t = 0; t < tokens; ++t) {  // unit q and k, as the model's L2 norm makes them
      for (int64_t part = 0; part < 2; ++part) {
        float* x = rows.data() + t * stride + part * n;
        double sum = 0;
        for (int64_t i = 0; i < n; ++i) sum += double(x[i]) * x[i];
        for (int64_t i = 0; i < n; ++i) x[i] = float(x[i] / std::sqrt(sum));
      }
    }
    std::uniform_real_distribution<float> unit(0.0f, 1.0f);
    log_decays.resize(static_cast<size_t>(tokens * gate_stride));
    betas.resize(log_decays.size());
    for (float& g : log_decays) g = -decay_scale * unit(rng);
    for (float& b : betas) b = unit(rng);
    outs.assign(static_cast<size_t>(tokens * n), 0.0f);
  }

  DeltaRuleRun run() {
    return {rows.data(),  rows.data() + n, rows.data() + 2 * n, stride, log_decays.data(),
            betas.data(), gate_stride,     outs.data(),         n,      tokens};
  }

  // The same tokens one step at a time: the definition the chunks must meet.
  std::vector<float> stepwise(std::vector<float>& state) const {
    std::vector<float> out(static_cast<size_t>(tokens * n));
    for (int64_t t = 0; t < tokens; ++t) {
      const float* row = rows.data() + t * stride;
      scalar::delta_rule_step(state.data(), row, row + n, row + 2 * n, log_decays[t * gate_stride],
                              betas[t * gate_stride], n, out.data() + t * n);
    }
    return out;
  }
};

void expect_close(const std::vector<float>& expected, const std::vector<float>& actual,
                  const char* what) {
  ASSERT_EQ(expected.size(), actual.size());
  for (size_t i = 0; i < expected.size(); ++i) {
    ASSERT_NEAR(expected[i], actual[i], 2e-4f * (1.0f + std::fabs(expected[i])))
        << what << " " << i;
  }
}

using ChunkKernel = void (*)(float*, const DeltaRuleRun&, int64_t);

void check_chunks_match_steps(ChunkKernel chunk) {
  for (int64_t n : {1, 7, 16, 33, 128}) {
    for (int64_t tokens :
         {int64_t{1}, int64_t{2}, int64_t{3}, int64_t{9}, int64_t{17}, kDeltaRuleChunk}) {
      for (float decay_scale : {0.05f, 3.0f, 40.0f}) {  // up to decays e^-40 per token
        std::mt19937 rng{uint32_t(n * 1000 + tokens)};
        RunInputs inputs(n, tokens, rng, decay_scale);
        const auto start = random_values(static_cast<size_t>(n * n), rng, 0.3f);
        std::vector<float> stepped = start, chunked = start;
        const auto expected = inputs.stepwise(stepped);
        chunk(chunked.data(), inputs.run(), n);
        SCOPED_TRACE(::testing::Message()
                     << "n " << n << " tokens " << tokens << " decay " << decay_scale);
        expect_close(expected, inputs.outs, "output");
        expect_close(stepped, chunked, "state");
      }
    }
  }
}

TEST(DeltaRuleChunk, ScalarMatchesTheTokensOneByOne) {
  check_chunks_match_steps(scalar::delta_rule_chunk);
}

TEST(DeltaRuleChunk, EveryPathMatchesTheTokensOneByOne) {
  for (const KernelTable* path : testing::vector_paths()) {
    SCOPED_TRACE(isa_name(path->isa));
    check_chunks_match_steps(path->delta_rule_chunk);
  }
}

TEST(DeltaRuleRun, ARunLongerThanAChunkGoesOnFromWhereTheLastChunkLeftTheState) {
  constexpr int64_t n = 32, tokens = 2 * kDeltaRuleChunk + 5;
  std::mt19937 rng(5);
  RunInputs inputs(n, tokens, rng, 0.5f);
  const auto start = random_values(static_cast<size_t>(n * n), rng, 0.3f);
  std::vector<float> stepped = start, run = start;
  const auto expected = inputs.stepwise(stepped);
  delta_rule_run(run.data(), inputs.run(), n);
  expect_close(expected, inputs.outs, "output");
  expect_close(stepped, run, "state");
}

TEST(CausalConv, EachOutputMixesTheLastKernelInputsOfItsChannel) {
  constexpr int64_t channels = 3, kernel = 4, tokens = 6;
  std::mt19937 rng(11);
  auto taps = random_values(channels * kernel, rng);
  std::vector<std::vector<float>> inputs;
  std::vector<float> window(channels * (kernel - 1), 0.0f);
  for (int64_t t = 0; t < tokens; ++t) {
    inputs.push_back(random_values(channels, rng));
    std::vector<float> y(channels);
    causal_conv_step(window.data(), inputs.back().data(), taps.data(), channels, kernel, y.data());
    for (int64_t c = 0; c < channels; ++c) {
      // Tap kernel-1 takes this token, tap kernel-1-i the token i back
      // (none before the first: zeros).
      double expected = 0;
      for (int64_t back = 0; back < kernel && back <= t; ++back) {
        expected += taps[c * kernel + kernel - 1 - back] * inputs[t - back][c];
      }
      EXPECT_NEAR(y[c], expected, 1e-5) << "token " << t << " channel " << c;
    }
  }
}

TEST(CausalConv, OutputMayOverwriteItsInput) {
  constexpr int64_t channels = 5, kernel = 4;
  std::mt19937 rng(3);
  auto taps = random_values(channels * kernel, rng);
  auto x = random_values(channels, rng);
  std::vector<float> window_a(channels * (kernel - 1), 0.5f), window_b = window_a;
  std::vector<float> apart(channels), in_place = x;
  causal_conv_step(window_a.data(), x.data(), taps.data(), channels, kernel, apart.data());
  causal_conv_step(window_b.data(), in_place.data(), taps.data(), channels, kernel,
                   in_place.data());
  EXPECT_EQ(apart, in_place);
  EXPECT_EQ(window_a, window_b);
}

}  // namespace
}  // namespace ingot::kernels
