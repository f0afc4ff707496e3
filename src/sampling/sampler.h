#pragma once
// Picks the next token from a row of logits. The order matches
// llama-server's default chain: logit bias, penalties, then greedy (at
// temperature 0) or top-k, top-p, min-p, temperature and a seeded draw.
// A grammar mask, when a request has one, is applied by the caller before
// sample() by setting disallowed logits to -inf.

#include <cstdint>
#include <span>
#include <vector>

#include "sampling/candidates.h"
#include "sampling/params.h"
#include "sampling/rng.h"
#include "sampling/token_history.h"
#include "sampling/token_logprobs.h"

namespace ingot::sampling {

struct SampledToken {
  int32_t id = -1;
  // Log-probability of `id` under the model's distribution after bias and
  // penalties, at temperature 1 over the whole vocabulary: what OpenAI's
  // `logprobs` reports. Filled only when the params ask for logprobs.
  float logprob = 0.0f;
  std::vector<TokenLogprob> top;  // best first, params.top_logprobs of them
};

class Sampler {
 public:
  explicit Sampler(SamplingParams params);

  // Modifies `logits` in place (bias, penalties). Allocates nothing once
  // its buffers have grown to the vocabulary size.
  SampledToken sample(std::span<float> logits);

  // Records a generated token for the penalties.
  void accept(int32_t token) { history_.push(token); }

  const SamplingParams& params() const { return params_; }

 private:
  void apply_bias_and_penalties(std::span<float> logits) const;
  int32_t draw(std::span<const float> logits);
  // Sum of exp(logit - max) over the candidates.
  double candidate_mass(float max);
  void keep_nucleus(double total_mass);
  void gather_nucleus_of_vocabulary(std::span<const float> logits);
  void fill_logprobs(std::span<const float> logits, SampledToken& token);

  SamplingParams params_;
  SeededRng rng_;
  TokenHistory history_;
  Candidates candidates_;
  std::vector<float> probs_;
};

// The index of the largest logit (lowest index on ties).
int32_t argmax(std::span<const float> logits);

}  // namespace ingot::sampling
