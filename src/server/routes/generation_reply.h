#pragma once
// Answers a submitted generation, whole or as a Server-Sent Events stream,
// in the shape of a chat completion or a text completion.

#include "engine/request_handle.h"
#include "server/http/http_exchange.h"
#include "server/openai/chat_response.h"
#include "server/serving_context.h"

namespace ingot::server {

enum class ReplyShape { kChat, kText };

struct ReplyOptions {
  ReplyShape shape = ReplyShape::kChat;
  bool stream = false;
  bool include_usage = false;
  bool logprobs = false;
  bool top_logprobs = false;
  CompletionIdentity identity;
};

// The refusal for a request the engine will not take (full queue,
// context exceeded, shutting down), and the headers that go with it.
ApiError admission_error(const Error& error);
std::vector<std::pair<std::string, std::string>> retry_after(const ApiError& error);

asio::awaitable<void> reply_with_generation(HttpExchange& exchange, ServingContext& context,
                                            engine::RequestHandle handle, ReplyOptions options);

}  // namespace ingot::server
