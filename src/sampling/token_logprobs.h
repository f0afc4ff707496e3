#pragma once
// Log-probabilities of a row of logits at temperature 1 over the whole
// vocabulary: what OpenAI's logprobs report, for a sampled token and for
// a prompt token being scored.

#include <cstdint>
#include <span>
#include <vector>

#include "sampling/candidates.h"

namespace ingot::sampling {

struct TokenLogprob {
  int32_t id;
  float logprob;
};

struct ScoredToken {
  float logprob = 0.0f;           // of the token asked about
  std::vector<TokenLogprob> top;  // best first
};

// `id`'s log-probability and the `n_top` (at most 20) most likely tokens.
// `scratch` holds the top-k selection and is reused across calls.
ScoredToken score_token(std::span<const float> logits, int32_t id, int32_t n_top,
                        Candidates& scratch);

}  // namespace ingot::sampling
