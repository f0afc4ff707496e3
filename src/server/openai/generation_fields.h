#pragma once
// The request fields chat and text completions share, and their checks.
// Each check reads its fields from the body through a Validator, which
// keeps only the first problem found.

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "server/openai/field_validator.h"

namespace ingot::server {

struct RequestLimits {
  std::vector<std::string> model_ids;  // the served id, then its aliases
  int64_t max_tokens_cap = 32768;
};

struct GenerationFields {
  std::string model;
  std::optional<int64_t> max_tokens;
  std::optional<float> temperature;
  std::optional<float> top_p;
  std::optional<int32_t> top_k;
  std::optional<float> min_p;
  std::optional<float> repetition_penalty;
  std::optional<float> frequency_penalty;
  std::optional<float> presence_penalty;
  std::optional<uint64_t> seed;
  std::vector<std::string> stop;
  bool stream = false;
  bool include_usage = false;
  bool logprobs = false;
  int32_t top_logprobs = 0;
  std::vector<std::pair<int32_t, float>> logit_bias;
  bool ignore_eos = false;  // llama-server's extension: never end at an end-of-generation token
  // llama-server's per-request adapters: (id, scale) pairs; absent: the
  // server's adapters at their own scales.
  std::optional<std::vector<std::pair<int64_t, float>>> lora;
  // A diffusion model's per-request denoising (ingot's extension): the
  // most steps a canvas takes and the entropy bound of each step.
  std::optional<int64_t> diffusion_steps;
  std::optional<float> diffusion_entropy_bound;
};

// `model`: required, a served id or alias (404 model_not_found otherwise).
void check_model(Validator& v, const RequestLimits& limits, GenerationFields& request);
// `max_tokens` / `max_completion_tokens` / llama-server's `n_predict` (-1:
// no limit): positive integers (not booleans) up to the cap; any two given
// must agree.
// `allow_zero`: 0 asks for no token (a text completion scoring its prompt).
void check_max_tokens(Validator& v, const RequestLimits& limits, GenerationFields& request,
                      bool allow_zero = false);
// temperature [0, 2], top_p (0, 1], top_k >= 0, min_p [0, 1],
// repetition_penalty or llama-server's repeat_penalty (0, 10], equal if
// both are given; frequency/presence_penalty [-2, 2]; seed (-1: random).
void check_sampling(Validator& v, GenerationFields& request);
// `stop`: a non-empty string or at most 4 non-empty strings.
void check_stop(Validator& v, GenerationFields& request);
// `stream` a boolean; `stream_options` only with stream, {include_usage}.
void check_stream(Validator& v, GenerationFields& request);
// `logprobs` a boolean; `top_logprobs` 0-20 and only with logprobs.
void check_logprobs(Validator& v, GenerationFields& request);
// `logit_bias`: token-id keys, values in [-100, 100].
void check_logit_bias(Validator& v, GenerationFields& request);
// llama-server's extensions: `ignore_eos` and `cache_prompt` booleans
// (the prefix cache is always on); `lora`, a list of {"id": integer >= 0,
// "scale": number} (scale 0 when absent), each id once. ingot's:
// `diffusion_steps` 1-1024 and `diffusion_entropy_bound` 0-1000.
void check_extensions(Validator& v, GenerationFields& request);

}  // namespace ingot::server
