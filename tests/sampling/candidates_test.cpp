#include "sampling/candidates.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "sampling/sampler.h"

namespace ingot::sampling {
namespace {

// Logits with many ties (values on a coarse grid) and some -inf, of a size
// that is not a multiple of the scan block.
std::vector<float> tied_logits(size_t n, uint32_t seed, int masked_every = 0) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> grid(-40, 40);
  std::vector<float> logits(n);
  for (size_t i = 0; i < n; ++i) {
    logits[i] = static_cast<float>(grid(rng)) * 0.25f;
    if (masked_every > 0 && i % static_cast<size_t>(masked_every) != 0) logits[i] = -INFINITY;
  }
  return logits;
}

std::vector<std::pair<int32_t, float>> as_pairs(Candidates& candidates) {
  std::vector<std::pair<int32_t, float>> pairs;
  for (const Candidate& c : candidates.items()) pairs.emplace_back(c.id, c.logit);
  return pairs;
}

TEST(Candidates, ResetTopKMatchesSortingTheWholeVocabulary) {
  for (size_t n : {1u, 5u, 63u, 64u, 65u, 1000u, 20011u}) {
    for (size_t k : {1u, 3u, 40u, 64u, 500u}) {
      for (int masked_every : {0, 7, 5000}) {
        std::vector<float> logits = tied_logits(n, static_cast<uint32_t>(n * 31 + k), masked_every);
        Candidates fast, reference;
        fast.reset_top_k(logits, k);
        reference.reset(logits);
        reference.keep_top_k(k);
        EXPECT_TRUE(fast.sorted());
        ASSERT_EQ(as_pairs(fast), as_pairs(reference))
            << "n=" << n << " k=" << k << " masked_every=" << masked_every;
      }
    }
  }
}

TEST(Candidates, ResetAtLeastKeepsExactlyTheTokensAtOrAboveTheThreshold) {
  std::vector<float> logits = tied_logits(10007, 3);
  Candidates candidates;
  candidates.reset_at_least(logits, 9.0f);
  std::vector<int32_t> expected;
  for (size_t i = 0; i < logits.size(); ++i) {
    if (logits[i] >= 9.0f) expected.push_back(static_cast<int32_t>(i));
  }
  std::vector<int32_t> got;
  for (const Candidate& c : candidates.items()) got.push_back(c.id);
  EXPECT_EQ(got, expected);
}

TEST(Candidates, MaxLogitIgnoresTheOrderAndTheTail) {
  for (size_t n : {1u, 15u, 16u, 17u, 1001u}) {
    std::vector<float> logits = tied_logits(n, static_cast<uint32_t>(n));
    logits[n - 1] = 100.0f;
    EXPECT_EQ(max_logit(logits), 100.0f);
    logits[n - 1] = -100.0f;
    logits[0] = 99.0f;
    EXPECT_EQ(max_logit(logits), 99.0f);
  }
  EXPECT_EQ(max_logit({}), -INFINITY);
}

TEST(Candidates, ArgmaxTakesTheLowestIdAmongEqualMaxima) {
  std::vector<float> logits = tied_logits(151936, 11);
  logits[70000] = 50.0f;
  logits[90000] = 50.0f;
  EXPECT_EQ(argmax(logits), 70000);
}

// top-p alone over a whole vocabulary gathers only the tokens near the best,
// widening the distance while they hold too little mass; the tokens it may
// draw must be those of the sorted-softmax definition. `peak` is the best
// logit over unit-normal noise: high, the nucleus lies near the best; low,
// it reaches into the noise and the gathering widens.
void expect_draws_within_the_nucleus(float peak) {
  std::mt19937 rng(5);
  std::normal_distribution<float> noise(0.0f, 1.0f);
  std::vector<float> logits(20000);
  for (float& l : logits) l = noise(rng);
  for (int i = 0; i < 10; ++i) logits[static_cast<size_t>(i) * 1999] = peak - static_cast<float>(i);

  // The nucleus by definition: sort, normalize over all, cut at 0.9.
  std::vector<size_t> order(logits.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return logits[a] > logits[b]; });
  double z = 0.0;
  for (float l : logits) z += std::exp(static_cast<double>(l - peak));
  std::vector<bool> in_nucleus(logits.size(), false);
  double cumulative = 0.0;
  for (size_t i : order) {
    in_nucleus[i] = true;
    cumulative += std::exp(static_cast<double>(logits[i] - peak)) / z;
    if (cumulative >= 0.9) break;
  }

  SamplingParams params;
  params.temperature = 1.0f;
  params.top_k = 0;
  params.top_p = 0.9f;
  params.min_p = 0.0f;
  params.seed = 8;
  Sampler sampler(params);
  std::vector<bool> drawn(logits.size(), false);
  for (int i = 0; i < 300; ++i) {
    std::vector<float> row = logits;
    drawn[static_cast<size_t>(sampler.sample(row).id)] = true;
  }
  for (size_t i = 0; i < logits.size(); ++i) {
    if (drawn[i]) {
      EXPECT_TRUE(in_nucleus[i]) << "token " << i << " is outside the nucleus (peak " << peak
                                 << ")";
    }
  }
  EXPECT_TRUE(drawn[0]);  // the best token holds the largest share
}

// keep_best_mass keeps the tokens sorting and cutting keeps: flat and
// peaked rows, tied logits, targets from one token's mass to nearly all.
TEST(Candidates, KeepBestMassKeepsTheSortedPrefix) {
  for (uint32_t seed : {1u, 2u, 3u}) {
    for (float spread : {0.25f, 2.0f}) {
      std::mt19937 rng(seed);
      std::normal_distribution<float> noise(0.0f, spread * 4.0f);
      std::vector<float> logits = tied_logits(30011, seed);
      for (float& l : logits) l = std::round(noise(rng) * 4.0f) / 4.0f;  // keep ties
      const float best = max_logit(logits);
      const float distance = 64.0f;
      for (double share : {1e-9, 0.3, 0.9, 0.999}) {
        Candidates fast, reference;
        fast.reset_at_least(logits, best - distance);
        reference.reset_at_least(logits, best - distance);
        double total = 0.0;
        for (const Candidate& c : reference.items()) total += std::exp(double(c.logit - best));
        ASSERT_TRUE(fast.keep_best_mass(best, distance, share * total));
        reference.sort_descending();
        double cumulative = 0.0;
        size_t keep = 0;
        for (const Candidate& c : reference.items()) {
          ++keep;
          cumulative += std::exp(double(c.logit - best));
          if (cumulative >= share * total) break;
        }
        reference.truncate(keep);
        auto got = as_pairs(fast), want = as_pairs(reference);
        std::sort(got.begin(), got.end());
        std::sort(want.begin(), want.end());
        EXPECT_EQ(got, want) << "seed " << seed << " spread " << spread << " share " << share;
      }
      // More mass than the items hold: nothing is cut.
      Candidates all;
      all.reset_at_least(logits, best - distance);
      const size_t size = all.size();
      EXPECT_FALSE(all.keep_best_mass(best, distance, 2.0 * double(logits.size())));
      EXPECT_EQ(all.size(), size);
    }
  }
}

TEST(Candidates, TopPOverTheVocabularyDrawsOnlyFromTheNucleus) {
  expect_draws_within_the_nucleus(16.0f);
  expect_draws_within_the_nucleus(11.0f);
}

}  // namespace
}  // namespace ingot::sampling
