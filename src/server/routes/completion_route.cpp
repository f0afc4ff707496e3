// POST /v1/completions: a raw prompt, no chat template.

#include "server/openai/completion_request.h"
#include "server/openai/json_body.h"
#include "server/routes/generation_reply.h"
#include "server/routes/prompt_building.h"
#include "server/routes/routes.h"

namespace ingot::server {
namespace {

asio::awaitable<void> serve_completion(HttpExchange& exchange, ServingContext& context) {
  auto body = parse_json_body(exchange.request().body());
  if (auto* error = std::get_if<ApiError>(&body)) {
    co_await exchange.respond_error(std::move(*error));
    co_return;
  }
  RequestLimits limits{context.model_ids(), context.defaults.max_tokens_cap};
  CompletionRequestOrError parsed = parse_completion_request(std::get<ordered_json>(body), limits);
  if (auto* error = std::get_if<ApiError>(&parsed)) {
    co_await exchange.respond_error(std::move(*error));
    co_return;
  }
  const CompletionRequest& request = std::get<CompletionRequest>(parsed);
  engine::GenerationRequest generation;
  generation.prompt = tokenize_prompt(request.prompt, context);
  generation.sampling = sampling_for(request, context);
  generation.max_tokens = static_cast<int32_t>(*request.max_tokens);
  generation.stop = request.stop;
  co_await submit_and_reply(exchange, context, std::move(generation), request, ReplyShape::kText);
}

}  // namespace

void add_completion_route(Router& router, ServingContext& context) {
  router.add({http::verb::post, "/v1/completions",
              [&context](HttpExchange& exchange) { return serve_completion(exchange, context); },
              /*requires_auth=*/true, /*json_body=*/true});
}

}  // namespace ingot::server
