#pragma once
// What a request asks of the sampler. Defaults match llama-server's, so a
// request that sets nothing samples as it would there; a server may
// override them (--temp, --top-k, ...) for fields a request omits.

#include <cstdint>
#include <utility>
#include <vector>

namespace ingot::sampling {

struct SamplingParams {
  float temperature = 0.8f;         // 0 = greedy
  int32_t top_k = 40;               // <= 0: off
  float top_p = 0.95f;              // 1: off
  float min_p = 0.05f;              // 0: off
  float repetition_penalty = 1.0f;  // 1: off
  int32_t repetition_window = 64;   // last N tokens the penalties look at; -1: all
  float frequency_penalty = 0.0f;
  float presence_penalty = 0.0f;
  std::vector<std::pair<int32_t, float>> logit_bias;  // token id -> added to its logit
  uint64_t seed = 0;
  int32_t top_logprobs = 0;  // alternatives to report per token, 0-20
  bool logprobs = false;     // report the chosen token's log-probability
};

}  // namespace ingot::sampling
