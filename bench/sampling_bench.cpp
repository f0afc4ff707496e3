// Sampling cost per token on Qwen's vocabulary size (151,936 logits), which
// the engine thread pays once per sequence per decode step while the thread
// pool waits.
//
// sample_defaults: llama-server's default chain (top-k 40, top-p 0.95,
//   min-p 0.05, temperature 1).
// sample_greedy: temperature 0.
// sample_top_p_only: top-k off, top-p 0.9 (the chain OpenAI-style clients
//   that send only top_p get).

#include <benchmark/benchmark.h>

#include <random>
#include <vector>

#include "sampling/sampler.h"

namespace {

using ingot::sampling::Sampler;
using ingot::sampling::SamplingParams;

constexpr size_t kQwenVocab = 151936;

// Logits shaped like a model's: mostly small, a few standing out.
std::vector<float> model_like_logits(uint32_t seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<float> noise(0.0f, 2.0f);
  std::vector<float> logits(kQwenVocab);
  for (float& l : logits) l = noise(rng);
  std::uniform_int_distribution<size_t> pick(0, kQwenVocab - 1);
  for (int i = 0; i < 20; ++i) logits[pick(rng)] += 8.0f + static_cast<float>(i % 5);
  return logits;
}

void run(benchmark::State& state, SamplingParams params) {
  Sampler sampler(std::move(params));
  std::vector<std::vector<float>> rows;
  for (uint32_t s = 0; s < 8; ++s) rows.push_back(model_like_logits(s));
  std::vector<float> scratch(kQwenVocab);
  size_t i = 0;
  for (auto _ : state) {
    scratch = rows[i++ % rows.size()];
    benchmark::DoNotOptimize(sampler.sample(scratch));
  }
  state.SetItemsProcessed(state.iterations());
}

SamplingParams with_temperature(float temperature) {
  SamplingParams params;
  params.temperature = temperature;
  return params;
}

void sample_defaults(benchmark::State& state) {
  run(state, with_temperature(1.0f));
}

void sample_greedy(benchmark::State& state) {
  run(state, with_temperature(0.0f));
}

void sample_top_p_only(benchmark::State& state) {
  SamplingParams params = with_temperature(1.0f);
  params.top_k = 0;
  params.top_p = 0.9f;
  params.min_p = 0.0f;
  run(state, params);
}

}  // namespace

BENCHMARK(sample_defaults)->Unit(benchmark::kMicrosecond);
BENCHMARK(sample_greedy)->Unit(benchmark::kMicrosecond);
BENCHMARK(sample_top_p_only)->Unit(benchmark::kMicrosecond);
