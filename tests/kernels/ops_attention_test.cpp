// Flash-style attention over F16 K/V: scalar against softmax(qK)V in double
// for any split into runs, AVX-512 against scalar on awkward head sizes.

#include "kernels/ops_attention.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "kernels/half.h"
#include "kernels/ops_test_support.h"

namespace ingot::kernels {
namespace {

using testing::expect_close;
using testing::kAwkwardLengths;
using testing::random_floats;

std::vector<uint16_t> random_f16(int64_t n, float scale, uint32_t seed) {
  std::vector<uint16_t> v(n);
  std::vector<float> f = random_floats(n, scale, seed);
  for (int64_t i = 0; i < n; ++i) v[i] = f32_to_f16(f[i]);
  return v;
}

// softmax(scale q.K) V in double, the whole context at once; with a
// softcap c each score is c tanh(score / c) first.
std::vector<float> attention_by_definition(const std::vector<float>& q,
                                           const std::vector<uint16_t>& k,
                                           const std::vector<uint16_t>& v, int64_t n,
                                           int64_t head_dim, double scale, double softcap = 0) {
  std::vector<double> scores(n);
  double max = -INFINITY;
  for (int64_t j = 0; j < n; ++j) {
    double dot = 0;
    for (int64_t d = 0; d < head_dim; ++d) dot += q[d] * double(f16_to_f32(k[j * head_dim + d]));
    scores[j] = scale * dot;
    if (softcap > 0) scores[j] = softcap * std::tanh(scores[j] / softcap);
    max = std::max(max, scores[j]);
  }
  double sum = 0;
  for (double& s : scores) sum += (s = std::exp(s - max));
  std::vector<float> out(head_dim);
  for (int64_t d = 0; d < head_dim; ++d) {
    double acc = 0;
    for (int64_t j = 0; j < n; ++j) acc += scores[j] * f16_to_f32(v[j * head_dim + d]);
    out[d] = float(acc / sum);
  }
  return out;
}

using AccumulateFn = void (*)(const float*, int64_t, const uint16_t*, int64_t, const uint16_t*,
                              int64_t, int64_t, ScoreScale, AttentionState*, float*);

// The cache's key layout: dimension-major, positions `stride` apart.
std::vector<uint16_t> transpose(const std::vector<uint16_t>& k, int64_t n, int64_t head_dim) {
  std::vector<uint16_t> t(k.size());
  for (int64_t j = 0; j < n; ++j) {
    for (int64_t d = 0; d < head_dim; ++d) t[d * n + j] = k[j * head_dim + d];
  }
  return t;
}

// Feeds the context in runs of `run` positions, as the cache's blocks
// would, for n_q heads at once; returns their outputs one after another.
std::vector<float> attention_in_runs(AccumulateFn accumulate, const std::vector<float>& q,
                                     int64_t n_q, const std::vector<uint16_t>& k,
                                     const std::vector<uint16_t>& v, int64_t n, int64_t head_dim,
                                     ScoreScale scale, int64_t run) {
  const std::vector<uint16_t> keys = transpose(k, n, head_dim);
  std::vector<float> out(n_q * head_dim);
  std::vector<AttentionState> states(n_q);
  for (int64_t h = 0; h < n_q; ++h) attention_begin(states[h], out.data() + h * head_dim, head_dim);
  for (int64_t start = 0; start < n; start += run) {
    const int64_t count = std::min(run, n - start);
    accumulate(q.data(), n_q, keys.data() + start, n, v.data() + start * head_dim, count, head_dim,
               scale, states.data(), out.data());
  }
  for (int64_t h = 0; h < n_q; ++h) attention_end(states[h], out.data() + h * head_dim, head_dim);
  return out;
}

TEST(Attention, ScalarMatchesTheDefinitionInAnyRuns) {
  for (int64_t head_dim : {8, 16, 64}) {
    for (int64_t n : {1, 2, 31, 65, 200}) {
      const int64_t n_q = 3;
      std::vector<float> q = random_floats(n_q * head_dim, 1.0f, 7);
      std::vector<uint16_t> k = random_f16(n * head_dim, 2.0f, 8);
      std::vector<uint16_t> v = random_f16(n * head_dim, 1.0f, 9);
      const float scale = 1.0f / std::sqrt(float(head_dim));
      std::vector<float> expected;
      for (int64_t h = 0; h < n_q; ++h) {
        std::vector<float> q_h(q.begin() + h * head_dim, q.begin() + (h + 1) * head_dim);
        std::vector<float> out = attention_by_definition(q_h, k, v, n, head_dim, scale);
        expected.insert(expected.end(), out.begin(), out.end());
      }
      for (int64_t run : {1, 7, 32, 1000}) {
        expect_close(
            attention_in_runs(&scalar::attention_accumulate, q, n_q, k, v, n, head_dim, scale, run),
            expected, 1e-5f);
      }
    }
  }
}

TEST(Attention, EveryPathMatchesScalar) {
  for (const KernelTable* path : testing::vector_paths()) {
    SCOPED_TRACE(isa_name(path->isa));
    for (int64_t n_q : {1, 2, 7, 8, 9, 16}) {
      for (int64_t head_dim : {8, 12, 16, 24, 64, 80, 128}) {
        for (int64_t n : {1, 3, 8, 9, 17, 64, 65, 300}) {
          std::vector<float> q = random_floats(n_q * head_dim, 1.0f, 10);
          std::vector<uint16_t> k = random_f16(n * head_dim, 2.0f, 11);
          std::vector<uint16_t> v = random_f16(n * head_dim, 1.0f, 12);
          const float scale = 1.0f / std::sqrt(float(head_dim));
          for (int64_t run : {5, 32, 1000}) {
            expect_close(attention_in_runs(path->attention_accumulate, q, n_q, k, v, n, head_dim,
                                           scale, run),
                         attention_in_runs(&scalar::attention_accumulate, q, n_q, k, v, n, head_dim,
                                           scale, run),
                         1e-5f);
          }
        }
      }
    }
  }
}

// Gemma 2's soft-capped scores: the scalar path against the definition,
// the vector paths against the scalar one, with scores large enough that
// the cap bends them.
TEST(Attention, SoftCappedScoresMatchTheDefinitionOnEveryPath) {
  const int64_t n_q = 3, head_dim = 64, n = 70;
  std::vector<float> q = random_floats(n_q * head_dim, 4.0f, 16);
  std::vector<uint16_t> k = random_f16(n * head_dim, 2.0f, 17);
  std::vector<uint16_t> v = random_f16(n * head_dim, 1.0f, 18);
  const ScoreScale scale(1.0f / std::sqrt(float(head_dim)), 2.0f);
  std::vector<float> expected;
  for (int64_t h = 0; h < n_q; ++h) {
    std::vector<float> q_h(q.begin() + h * head_dim, q.begin() + (h + 1) * head_dim);
    std::vector<float> out =
        attention_by_definition(q_h, k, v, n, head_dim, scale.scale, scale.softcap);
    expected.insert(expected.end(), out.begin(), out.end());
  }
  const std::vector<float> scalar_out =
      attention_in_runs(&scalar::attention_accumulate, q, n_q, k, v, n, head_dim, scale, 32);
  expect_close(scalar_out, expected, 1e-5f);
  // Uncapped, the result differs: the cap is applied.
  const std::vector<float> uncapped =
      attention_in_runs(&scalar::attention_accumulate, q, n_q, k, v, n, head_dim, scale.scale, 32);
  float largest_change = 0.0f;
  for (size_t i = 0; i < uncapped.size(); ++i) {
    largest_change = std::max(largest_change, std::fabs(uncapped[i] - scalar_out[i]));
  }
  EXPECT_GT(largest_change, 1e-2f);
  for (const KernelTable* path : testing::vector_paths()) {
    SCOPED_TRACE(isa_name(path->isa));
    expect_close(
        attention_in_runs(path->attention_accumulate, q, n_q, k, v, n, head_dim, scale, 32),
        scalar_out, 1e-5f);
  }
}

// gpt-oss's sink: a logit with no value in the softmax's denominator,
// folded in after the runs, equal to the definition with the sink as one
// more score whose value row is zero, whether it is the largest or not.
TEST(Attention, AFoldedSinkIsAScoreWithAZeroValue) {
  const int64_t head_dim = 16, n = 40;
  std::vector<float> q = random_floats(head_dim, 1.0f, 19);
  std::vector<uint16_t> k = random_f16(n * head_dim, 2.0f, 20);
  std::vector<uint16_t> v = random_f16(n * head_dim, 1.0f, 21);
  const float scale = 1.0f / std::sqrt(float(head_dim));
  for (float sink : {-3.0f, 0.5f, 9.0f}) {
    std::vector<double> scores(n);
    double max = sink;
    for (int64_t j = 0; j < n; ++j) {
      double dot = 0;
      for (int64_t d = 0; d < head_dim; ++d) dot += q[d] * f16_to_f32(k[j * head_dim + d]);
      max = std::max(max, scores[j] = scale * dot);
    }
    double sum = std::exp(sink - max);
    for (double& s : scores) sum += (s = std::exp(s - max));
    std::vector<float> expected(head_dim);
    for (int64_t d = 0; d < head_dim; ++d) {
      double acc = 0;
      for (int64_t j = 0; j < n; ++j) acc += scores[j] * f16_to_f32(v[j * head_dim + d]);
      expected[d] = float(acc / sum);
    }
    const std::vector<uint16_t> keys = transpose(k, n, head_dim);
    std::vector<float> out(head_dim);
    AttentionState state;
    attention_begin(state, out.data(), head_dim);
    for (int64_t start = 0; start < n; start += 16) {
      scalar::attention_accumulate(q.data(), 1, keys.data() + start, n, v.data() + start * head_dim,
                                   std::min<int64_t>(16, n - start), head_dim, scale, &state,
                                   out.data());
    }
    attention_fold_sink(state, out.data(), head_dim, sink);
    attention_end(state, out.data(), head_dim);
    expect_close(out, expected, 1e-5f);
  }
}

}  // namespace
}  // namespace ingot::kernels
