#pragma once
// POST /v1/chat/completions: the request body parsed and validated into a
// ChatRequest, or the ApiError that refuses it. Nothing is sent to the
// client and nothing reaches the engine before this has passed.
//
// Validation order (docs/api.md repeats it; tests pin it):
//  1. the body is a JSON object
//  2. features this build does not serve: `n` other than 1, `tools` or
//     `tool_choice`, a `response_format` other than text
//  3. `model`: a string naming the served model or an alias (else 404)
//  4. `messages`: a non-empty list of well-formed messages
//  5. `max_tokens` / `max_completion_tokens`
//  6. sampling: temperature, top_p, top_k, min_p, repetition_penalty,
//     frequency_penalty, presence_penalty, seed
//  7. `stop`
//  8. `stream`, `stream_options`
//  9. `logprobs`, `top_logprobs`
// 10. `logit_bias`
// 11. `chat_template_kwargs`
// Unknown top-level fields are ignored, as OpenAI does.

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "server/api_error.h"

namespace ingot::server {

struct ChatRequestLimits {
  std::vector<std::string> model_ids;  // the served id, then its aliases
  int64_t max_tokens_cap = 32768;
};

struct ChatRequest {
  std::string model;
  // The messages as the chat template receives them: content normalized to
  // a string or a list of text parts, tool call arguments kept as sent.
  nlohmann::json messages;
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
  nlohmann::json chat_template_kwargs = nlohmann::json::object();
};

using ChatRequestOrError = std::variant<ChatRequest, ApiError>;

ChatRequestOrError parse_chat_request(const nlohmann::json& body, const ChatRequestLimits& limits);

}  // namespace ingot::server
