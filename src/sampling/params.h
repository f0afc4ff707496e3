#pragma once
// What a request asks of the sampler. Defaults match llama-server's, so a
// request that sets nothing samples as it would there; a server may
// override them (--temp, --top-k, ...) for fields a request omits.

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace ingot::sampling {

namespace grammar {
class Grammar;
}

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

  // Constrained decoding: only tokens that keep the generated text a prefix
  // of a sentence of `grammar` are sampled, the end-of-generation token
  // only once the sentence is complete, and generation stops (finish
  // reason stop) when nothing more may follow.
  std::shared_ptr<const grammar::Grammar> grammar;
  // Lazy arming (tool calls under tool_choice "auto"): when non-empty,
  // decoding is free until the generated text contains one of these
  // strings; from there on the grammar applies, matched against the text
  // starting at the trigger, so a trigger is the start of a sentence of the
  // grammar (e.g. "<tool_call>"). Text before the trigger stays free.
  // Empty: the grammar applies from the first generated token.
  std::vector<std::string> grammar_triggers;
};

}  // namespace ingot::sampling
