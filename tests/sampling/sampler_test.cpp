#include "sampling/sampler.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <vector>

namespace ingot::sampling {
namespace {

SamplingParams greedy() {
  SamplingParams p;
  p.temperature = 0.0f;
  return p;
}

SamplingParams plain(uint64_t seed) {
  SamplingParams p;
  p.temperature = 1.0f;
  p.top_k = 0;
  p.top_p = 1.0f;
  p.min_p = 0.0f;
  p.seed = seed;
  return p;
}

std::vector<int32_t> draw_many(SamplingParams params, const std::vector<float>& logits, int n) {
  Sampler sampler(std::move(params));
  std::vector<int32_t> ids;
  for (int i = 0; i < n; ++i) {
    std::vector<float> row = logits;
    ids.push_back(sampler.sample(row).id);
  }
  return ids;
}

TEST(Sampler, GreedyPicksTheLargestLogitAndTheLowestIdOnTies) {
  std::vector<float> logits = {0.1f, 3.0f, -1.0f, 3.0f};
  Sampler sampler(greedy());
  EXPECT_EQ(sampler.sample(logits).id, 1);
}

TEST(Sampler, SameSeedSameTokens) {
  std::vector<float> logits = {1.0f, 1.1f, 0.9f, 1.05f, 0.5f};
  EXPECT_EQ(draw_many(plain(42), logits, 200), draw_many(plain(42), logits, 200));
  EXPECT_NE(draw_many(plain(42), logits, 200), draw_many(plain(43), logits, 200));
}

TEST(Sampler, DrawsFollowTheSoftmax) {
  std::vector<float> logits = {std::log(0.5f), std::log(0.3f), std::log(0.2f)};
  std::map<int32_t, int> counts;
  for (int32_t id : draw_many(plain(7), logits, 20000)) ++counts[id];
  EXPECT_NEAR(counts[0] / 20000.0, 0.5, 0.02);
  EXPECT_NEAR(counts[1] / 20000.0, 0.3, 0.02);
  EXPECT_NEAR(counts[2] / 20000.0, 0.2, 0.02);
}

TEST(Sampler, TopKOneIsGreedy) {
  SamplingParams p = plain(1);
  p.top_k = 1;
  std::vector<float> logits = {0.0f, 0.2f, 5.0f, 0.1f};
  for (int32_t id : draw_many(p, logits, 50)) EXPECT_EQ(id, 2);
}

TEST(Sampler, TopPKeepsTheSmallestSetReachingP) {
  SamplingParams p = plain(3);
  p.top_p = 0.7f;
  std::vector<float> logits = {std::log(0.5f), std::log(0.3f), std::log(0.2f)};
  for (int32_t id : draw_many(p, logits, 500)) EXPECT_NE(id, 2);
}

TEST(Sampler, MinPDropsTokensFarBelowTheBest) {
  SamplingParams p = plain(5);
  p.min_p = 0.5f;
  std::vector<float> logits = {std::log(0.6f), std::log(0.35f), std::log(0.05f)};
  for (int32_t id : draw_many(p, logits, 500)) EXPECT_NE(id, 2);
}

TEST(Sampler, LogitBiasCanBanAToken) {
  SamplingParams p = greedy();
  p.logit_bias = {{1, -100.0f}};
  std::vector<float> logits = {1.0f, 2.0f, 0.5f};
  Sampler sampler(p);
  EXPECT_EQ(sampler.sample(logits).id, 0);
}

TEST(Sampler, PenaltiesLowerRepeatedTokens) {
  SamplingParams p = greedy();
  p.repetition_penalty = 2.0f;
  Sampler sampler(p);
  sampler.accept(0);
  std::vector<float> logits = {3.0f, 2.0f};
  EXPECT_EQ(sampler.sample(logits).id, 1);  // 3 / 2 < 2
  EXPECT_FLOAT_EQ(logits[0], 1.5f);

  SamplingParams q = greedy();
  q.frequency_penalty = 0.5f;
  q.presence_penalty = 0.25f;
  Sampler additive(q);
  additive.accept(0);
  additive.accept(0);
  std::vector<float> row = {3.0f, 2.0f};
  additive.sample(row);
  EXPECT_FLOAT_EQ(row[0], 3.0f - 2 * 0.5f - 0.25f);
}

TEST(Sampler, RepetitionWindowForgetsOldTokens) {
  SamplingParams p = greedy();
  p.repetition_penalty = 10.0f;
  p.repetition_window = 2;
  Sampler sampler(p);
  sampler.accept(0);
  sampler.accept(1);
  sampler.accept(1);  // token 0 has left the window
  std::vector<float> logits = {3.0f, 2.9f};
  EXPECT_EQ(sampler.sample(logits).id, 0);
}

TEST(Sampler, LogprobsAreNormalizedAndTopIsSorted) {
  SamplingParams p = greedy();
  p.logprobs = true;
  p.top_logprobs = 3;
  std::vector<float> logits = {1.0f, 3.0f, 2.0f, 0.0f};
  Sampler sampler(p);
  SampledToken token = sampler.sample(logits);
  double z = 0;
  for (float l : {1.0f, 3.0f, 2.0f, 0.0f}) z += std::exp(l);
  EXPECT_NEAR(token.logprob, 3.0 - std::log(z), 1e-5);
  ASSERT_EQ(token.top.size(), 3u);
  EXPECT_EQ(token.top[0].id, 1);
  EXPECT_EQ(token.top[1].id, 2);
  EXPECT_EQ(token.top[2].id, 0);
  EXPECT_GT(token.top[1].logprob, token.top[2].logprob);
}

TEST(SeededRng, UnitIsInRangeAndFixedBySeed) {
  SeededRng a(9), b(9);
  for (int i = 0; i < 1000; ++i) {
    double x = a.next_unit();
    EXPECT_GE(x, 0.0);
    EXPECT_LT(x, 1.0);
    EXPECT_EQ(x, b.next_unit());
  }
}

}  // namespace
}  // namespace ingot::sampling
