// The entropy-bounded denoiser: the reference's random draws, its
// acceptance rule, its temperature schedule and its stop.

#include "sampling/canvas_denoiser.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

namespace ingot::sampling {
namespace {

constexpr int64_t kCanvas = 8;
constexpr int64_t kVocab = 50;

DenoiserParams params_with_seed(uint32_t seed) {
  DenoiserParams params;
  params.seed = seed;
  params.max_steps = 10;
  return params;
}

// Rows whose logits put `peak` far above the rest (entropy near zero),
// or, where peak is negative, flat rows (entropy log kVocab).
std::vector<float> logits_with_peaks(const std::vector<int32_t>& peaks) {
  std::vector<float> logits(size_t(kCanvas * kVocab), 0.0f);
  for (int64_t p = 0; p < kCanvas; ++p) {
    if (peaks[size_t(p)] >= 0) logits[size_t(p * kVocab + peaks[size_t(p)])] = 100.0f;
  }
  return logits;
}

TEST(CanvasDenoiser, StartsFromTheReferencesRandomCanvas) {
  CanvasDenoiser denoiser(params_with_seed(7), kCanvas, kVocab);
  std::mt19937 rng(7);
  std::uniform_int_distribution<int32_t> token(0, kVocab - 1);
  for (int32_t t : denoiser.canvas()) EXPECT_EQ(t, token(rng));
  EXPECT_EQ(denoiser.previous_probabilities(0), nullptr);
}

TEST(CanvasDenoiser, TemperatureFallsFromTMaxTowardsTMin) {
  CanvasDenoiser denoiser(params_with_seed(1), kCanvas, kVocab);
  ThreadPool pool(1);
  EXPECT_FLOAT_EQ(denoiser.temperature(), 0.8f);
  float before = denoiser.temperature();
  for (int i = 0; i < 9; ++i) {
    std::vector<float> flat = logits_with_peaks(std::vector<int32_t>(kCanvas, -1));
    denoiser.take_step(flat.data(), pool);
    EXPECT_LT(denoiser.temperature(), before);
    before = denoiser.temperature();
  }
  EXPECT_FLOAT_EQ(denoiser.temperature(), 0.4f + 0.4f / 10.0f);
  EXPECT_FALSE(denoiser.done());  // flat rows are never confident
  std::vector<float> flat = logits_with_peaks(std::vector<int32_t>(kCanvas, -1));
  denoiser.take_step(flat.data(), pool);
  EXPECT_TRUE(denoiser.done());  // max_steps
}

// Confident positions keep their sample (their argmax); of the flat ones,
// whose entropy alone passes the bound, only the first in entropy order
// would be kept, and none is when confident ones come before it.
// The tokens a step redraws positions with, from the reference's order of
// draws after the initial canvas.
std::vector<int32_t> renoise_draws(uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  std::uniform_int_distribution<int32_t> token(0, kVocab - 1);
  for (int64_t i = 0; i < kCanvas; ++i) token(rng);
  std::vector<int32_t> renoise;
  for (int64_t i = 0; i < kCanvas; ++i) {
    unit(rng);
    renoise.push_back(token(rng));
  }
  return renoise;
}

// Confident positions keep their sample (their argmax). A position is kept
// while the entropies before it sum within the bound: the first flat one
// in entropy order still is, the other three are redrawn.
TEST(CanvasDenoiser, KeepsTheLowEntropyPositionsAndRedrawsTheRest) {
  CanvasDenoiser denoiser(params_with_seed(3), kCanvas, kVocab);
  ThreadPool pool(2);
  const std::vector<int32_t> peaks{5, -1, 9, -1, -1, 11, -1, 13};
  std::vector<float> logits = logits_with_peaks(peaks);
  const std::vector<int32_t> renoise = renoise_draws(3);
  denoiser.take_step(logits.data(), pool);
  int redrawn = 0;
  for (int64_t p = 0; p < kCanvas; ++p) {
    const int32_t peak = peaks[size_t(p)];
    if (peak >= 0) {
      EXPECT_EQ(denoiser.canvas()[size_t(p)], peak) << p;
      EXPECT_EQ(denoiser.argmax()[size_t(p)], peak) << p;
    } else {
      redrawn += denoiser.canvas()[size_t(p)] == renoise[size_t(p)];
    }
  }
  EXPECT_EQ(redrawn, 3);
}

// When every entropy alone passes the bound, the lowest is kept anyway.
TEST(CanvasDenoiser, KeepsTheLowestEntropyPositionWhenEveryOnePassesTheBound) {
  CanvasDenoiser denoiser(params_with_seed(4), kCanvas, kVocab);
  ThreadPool pool(1);
  std::vector<float> logits(size_t(kCanvas * kVocab), 0.0f);
  // Every row nearly flat, row 6 a little less so than the others.
  for (int64_t p = 0; p < kCanvas; ++p) logits[size_t(p * kVocab)] = p == 6 ? 1.5f : 0.5f;
  const std::vector<int32_t> renoise = renoise_draws(4);
  denoiser.take_step(logits.data(), pool);
  for (int64_t p = 0; p < kCanvas; ++p) {
    if (p != 6) {
      EXPECT_EQ(denoiser.canvas()[size_t(p)], renoise[size_t(p)]) << p;
    }
  }
  EXPECT_FALSE(denoiser.done());
}

// Bounds on the exploration sample: temperature 0 or top_k 1 keep the
// argmax itself wherever a position is accepted; the entropies (which
// choose the accepted positions) are the schedule's either way.
TEST(CanvasDenoiser, BoundedSamplesKeepTheArgmaxAtTemperatureZeroOrTopKOne) {
  for (int bound = 0; bound < 2; ++bound) {
    DenoiserParams params = params_with_seed(8);
    params.entropy_bound = 100.0f;  // every position accepted
    if (bound == 0) params.temperature = 0.0f;
    if (bound == 1) params.top_k = 1;
    CanvasDenoiser denoiser(params, kCanvas, kVocab);
    ThreadPool pool(2);
    std::vector<float> logits(size_t(kCanvas * kVocab));
    std::mt19937 values(17);
    std::normal_distribution<float> normal(0.0f, 1.0f);
    for (float& v : logits) v = normal(values);
    denoiser.take_step(logits.data(), pool);
    for (int64_t p = 0; p < kCanvas; ++p) {
      EXPECT_EQ(denoiser.canvas()[size_t(p)], denoiser.argmax()[size_t(p)]) << bound << " " << p;
    }
  }
}

// top_p keeps the fewest tokens holding that much probability: with one
// token holding most of it, that token.
TEST(CanvasDenoiser, TopPDrawsFromTheNucleus) {
  DenoiserParams params = params_with_seed(9);
  params.entropy_bound = 100.0f;
  params.top_p = 0.5f;
  CanvasDenoiser denoiser(params, kCanvas, kVocab);
  ThreadPool pool(1);
  std::vector<float> logits(size_t(kCanvas * kVocab), 0.0f);
  for (int64_t p = 0; p < kCanvas; ++p) logits[size_t(p * kVocab + 2 * p)] = 6.0f;
  denoiser.take_step(logits.data(), pool);
  for (int64_t p = 0; p < kCanvas; ++p) EXPECT_EQ(denoiser.canvas()[size_t(p)], 2 * p) << p;
}

TEST(CanvasDenoiser, StopsOnceTheArgmaxHoldsWithConfidence) {
  CanvasDenoiser denoiser(params_with_seed(5), kCanvas, kVocab);
  ThreadPool pool(1);
  const std::vector<int32_t> peaks{1, 2, 3, 4, 5, 6, 7, 8};
  std::vector<float> logits = logits_with_peaks(peaks);
  denoiser.take_step(logits.data(), pool);
  EXPECT_FALSE(denoiser.done());  // nothing to hold against yet
  logits = logits_with_peaks(peaks);
  denoiser.take_step(logits.data(), pool);
  EXPECT_TRUE(denoiser.done());
  EXPECT_EQ(denoiser.steps_taken(), 2);
  EXPECT_EQ(std::vector<int32_t>(denoiser.argmax().begin(), denoiser.argmax().end()), peaks);
}

TEST(CanvasDenoiser, KeepsEachRowsProbabilitiesAtItsTemperature) {
  CanvasDenoiser denoiser(params_with_seed(6), kCanvas, kVocab);
  ThreadPool pool(1);
  std::vector<float> logits(size_t(kCanvas * kVocab));
  for (size_t i = 0; i < logits.size(); ++i) logits[i] = float(i % 7) * 0.3f;
  const std::vector<float> raw = logits;
  const float t = denoiser.temperature();
  denoiser.take_step(logits.data(), pool);
  for (int64_t p = 0; p < kCanvas; ++p) {
    const float* probabilities = denoiser.previous_probabilities(p);
    ASSERT_NE(probabilities, nullptr);
    double total = 0, expected_total = 0;
    for (int64_t v = 0; v < kVocab; ++v)
      expected_total += std::exp(raw[size_t(p * kVocab + v)] / t);
    for (int64_t v = 0; v < kVocab; ++v) {
      total += probabilities[v];
      EXPECT_NEAR(probabilities[v], std::exp(raw[size_t(p * kVocab + v)] / t) / expected_total,
                  1e-6);
    }
    EXPECT_NEAR(total, 1.0, 1e-5);
  }
}

}  // namespace
}  // namespace ingot::sampling
