#pragma once
// DiffusionGemma's entropy-bounded denoiser of one canvas, step for step as
// the reference's (llama.cpp pull request 24423, after transformers'
// DiffusionGemmaGenerationMixin). The canvas starts as uniformly random
// tokens. Each step reads the canvas's logits at a temperature falling
// linearly from t_max to t_min, and for every position takes the argmax,
// one sample and the entropy of softmax(logits / t); the positions of
// lowest entropy whose entropies sum within the bound keep their sample
// (at least one), the others are drawn at random again. The canvas is done
// once its argmax held for stability_steps steps with a mean entropy under
// the confidence threshold, or after max_steps; the argmax canvas is its
// text. The random draws follow the reference's order from std::mt19937
// seeded with the request's seed, canvas by canvas, so a seed reproduces
// the reference's canvas.

#include <cstdint>
#include <random>
#include <span>
#include <vector>

#include "util/thread_pool.h"

namespace ingot::sampling {

struct DenoiserParams {
  int64_t max_steps = 48;
  float t_min = 0.4f;
  float t_max = 0.8f;
  float entropy_bound = 0.1f;
  int64_t stability_steps = 1;
  float confidence = 0.005f;
  uint32_t seed = 0;
  // A request's bounds on each position's exploration sample (the token
  // it keeps when accepted); the schedule, the entropies and the
  // self-conditioning stay the model's. The sample is drawn at the lower
  // of the step's temperature and `temperature` (0: the argmax; negative:
  // no bound), from the top_k most likely tokens (0: all) and the fewest
  // holding top_p of the probability (1: all).
  float temperature = -1.0f;
  int32_t top_k = 0;
  float top_p = 1.0f;

  bool bounds_samples() const { return temperature >= 0.0f || top_k > 0 || top_p < 1.0f; }
};

class CanvasDenoiser {
 public:
  CanvasDenoiser(const DenoiserParams& params, int64_t canvas_length, int64_t n_vocab);

  const DenoiserParams& params() const { return params_; }
  // The tokens the next step runs.
  std::span<const int32_t> canvas() const { return canvas_; }
  // The temperature of the next step.
  float temperature() const;
  // Each position's token probabilities at the step before, for the next
  // step's self-conditioning; null before the first step.
  const float* previous_probabilities(int64_t position) const;

  // Takes one step's logits (canvas_length rows of n_vocab, rewritten).
  void take_step(float* logits, ThreadPool& pool);

  // The canvas's text as it stands: each position's argmax at the last step.
  std::span<const int32_t> argmax() const { return argmax_; }
  int64_t steps_taken() const { return steps_taken_; }
  bool done() const { return done_; }

 private:
  struct Position {
    int32_t argmax = 0;
    int32_t sample = 0;
    float entropy = 0;
  };
  Position read_row(float* row, float temperature_inverse, float u) const;
  int32_t bounded_sample(const float* logits, float temperature, int32_t argmax, float u) const;
  void accept_and_renoise(std::span<const int32_t> renoise);

  DenoiserParams params_;
  int64_t canvas_length_;
  int64_t n_vocab_;
  std::mt19937 rng_;
  std::uniform_real_distribution<float> unit_{0.0f, 1.0f};
  std::uniform_int_distribution<int32_t> token_;
  std::vector<int32_t> canvas_;
  std::vector<int32_t> argmax_;
  std::vector<int32_t> previous_argmax_;
  std::vector<Position> positions_;
  std::vector<float> probabilities_;  // [canvas_length][n_vocab]
  int64_t steps_taken_ = 0;
  int64_t held_ = 0;
  bool done_ = false;
};

}  // namespace ingot::sampling
