#pragma once
// POST /v1/chat/completions: the request body parsed and validated into a
// ChatRequest, or the ApiError that refuses it. Nothing is sent to the
// client and nothing reaches the engine before this has passed.
//
// Validation order (docs/api.md repeats it; tests pin it):
//  1. the body is a JSON object
//  2. features this build does not serve: `n` other than 1
//  3. `model`: a string naming the served model or an alias (else 404)
//  4. `messages`: a non-empty list of well-formed messages
//  5. `max_tokens` / `max_completion_tokens`
//  6. sampling: temperature, top_p, top_k, min_p, repetition_penalty,
//     frequency_penalty, presence_penalty, seed
//  7. `stop`
//  8. `stream`, `stream_options`
//  9. `logprobs`, `top_logprobs`
// 10. `logit_bias`
// 11. `chat_template_kwargs`, then `reasoning_effort` (enable_thinking),
//     then `reasoning_budget` (absent: the budget the effort stands for)
// 12. `response_format`
// 13. `grammar`
// 14. `tools`, `tool_choice`, `parallel_tool_calls`
// A schema or grammar that passes these shape checks is compiled when the
// prompt is built; its errors are 400s too, before anything is sent.
// Unknown top-level fields are ignored, as OpenAI does.

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "server/api_error.h"
#include "server/openai/generation_fields.h"
#include "server/openai/structured_output_fields.h"

namespace ingot::server {

// The fields every generation request shares, in generation_fields.h.
struct ChatRequest : GenerationFields, StructuredOutputFields {
  // The messages as the chat template receives them, key order kept.
  nlohmann::ordered_json messages;
  nlohmann::ordered_json chat_template_kwargs = nlohmann::ordered_json::object();
  // At most this many reasoning tokens before the reply's answer begins.
  std::optional<int64_t> reasoning_budget;
};

// The reasoning budgets `reasoning_effort` low and medium stand for (high
// sets none); Anthropic's smallest thinking budget, and four times it.
constexpr int64_t kLowEffortReasoningBudget = 1024;
constexpr int64_t kMediumEffortReasoningBudget = 4096;

using ChatRequestOrError = std::variant<ChatRequest, ApiError>;

ChatRequestOrError parse_chat_request(const nlohmann::ordered_json& body,
                                      const RequestLimits& limits);

}  // namespace ingot::server
