#pragma once
// Answers a submitted generation, whole or as a Server-Sent Events stream,
// in the shape of a chat completion or a text completion.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "chat/tool_calls/tool_call_family.h"
#include "engine/request_handle.h"
#include "server/http/http_exchange.h"
#include "server/openai/chat_response.h"
#include "server/openai/generation_fields.h"
#include "server/routes/tool_call_reading.h"
#include "server/serving_context.h"

namespace ingot::server {

enum class ReplyShape { kChat, kText };

// How a text completion's reply begins: with its prompt (echo), and where
// its logprobs' text offsets start (after the prompt, without echo).
struct TextEcho {
  std::optional<std::string> prompt;
  size_t prompt_bytes = 0;
};

// Submits `generation` to the engine and answers it in `shape`: a refusal
// (full queue, context exceeded, shutting down) before any reply byte,
// else the whole reply or its event stream as `request` asked. `ticket` is
// released once the engine has taken (or refused) the request.
asio::awaitable<void> submit_and_reply(HttpExchange& exchange, ServingContext& context,
                                       engine::GenerationRequest generation,
                                       const GenerationFields& request, ReplyShape shape,
                                       ToolCallReading tool_calls = {}, TextEcho echo = {},
                                       AdmissionOrder::Ticket ticket = {});

}  // namespace ingot::server
