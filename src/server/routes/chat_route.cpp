// POST /v1/chat/completions: validate, render, tokenize, admit, answer.
// Every refusal happens here, before the first byte of a reply is written.

#include "server/openai/chat_request.h"
#include "server/openai/json_body.h"
#include "server/routes/generation_reply.h"
#include "server/routes/prompt_building.h"
#include "server/routes/routes.h"

namespace ingot::server {

namespace {

asio::awaitable<void> serve_chat(HttpExchange& exchange, ServingContext& context) {
  auto body = parse_json_body(exchange.request().body());
  if (auto* error = std::get_if<ApiError>(&body)) {
    co_await exchange.respond_error(std::move(*error));
    co_return;
  }
  RequestLimits limits{context.model_ids(), context.defaults.max_tokens_cap};
  ChatRequestOrError parsed = parse_chat_request(std::get<ordered_json>(body), limits);
  if (auto* error = std::get_if<ApiError>(&parsed)) {
    co_await exchange.respond_error(std::move(*error));
    co_return;
  }
  const ChatRequest& request = std::get<ChatRequest>(parsed);
  auto generation = build_chat_generation(request, context);
  if (auto* error = std::get_if<ApiError>(&generation)) {
    co_await exchange.respond_error(std::move(*error));
    co_return;
  }
  Result<engine::RequestHandle> handle =
      context.engine->submit(std::move(std::get<engine::GenerationRequest>(generation)));
  if (!handle.ok()) {
    ApiError error = admission_error(handle.error());
    auto headers = retry_after(error);
    co_await exchange.respond_error(std::move(error), std::move(headers));
    co_return;
  }
  ReplyOptions options;
  options.shape = ReplyShape::kChat;
  options.stream = request.stream;
  options.include_usage = request.include_usage;
  options.logprobs = request.logprobs;
  options.top_logprobs = request.top_logprobs > 0;
  options.identity = new_identity("chatcmpl-", request.model, context.system_fingerprint);
  co_await reply_with_generation(exchange, context, std::move(handle).value(), std::move(options));
}

}  // namespace

void add_chat_route(Router& router, ServingContext& context) {
  router.add({http::verb::post, "/v1/chat/completions",
              [&context](HttpExchange& exchange) { return serve_chat(exchange, context); },
              /*requires_auth=*/true, /*json_body=*/true});
}

}  // namespace ingot::server
