#pragma once
// POST /v1/messages (Anthropic's Messages API): the body checked against
// Anthropic's shapes, then translated into the chat request every dialect
// ends in, which the chat route's checks validate further (model, sampling,
// tool schemas). Nothing reaches the engine before both have passed.
//
// Validation order (docs/api.md repeats it):
//  1. the body is a JSON object
//  2. `max_tokens` (required, except for count_tokens)
//  3. `system`: a string or a list of text blocks
//  4. `messages`: a non-empty list of user and assistant turns whose
//     content is a string or blocks (text, tool_use, tool_result, thinking,
//     redacted_thinking; image and document refused on a text model)
//  5. `tools` (custom tools: name, description, input_schema), `tool_choice`
//  6. `stop_sequences`, `temperature` [0, 1], `thinking`, `metadata`
//  7. the chat request's own checks, in its order

#include <nlohmann/json.hpp>

#include "server/api_error.h"
#include "server/openai/chat_request.h"

namespace ingot::server::anthropic {

enum class MessagesCall { kCreate, kCountTokens };

// The chat request a Messages body becomes (thinking.budget_tokens as its
// reasoning_budget, stop_sequences as its stop), or the refusal.
ChatRequestOrError parse_messages_request(const nlohmann::ordered_json& body,
                                          const RequestLimits& limits,
                                          MessagesCall call = MessagesCall::kCreate);

}  // namespace ingot::server::anthropic
