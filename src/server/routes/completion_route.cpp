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
  generation.sampling = sampling_for(request, context.defaults);
  generation.max_tokens = static_cast<int32_t>(*request.max_tokens);
  generation.stop = request.stop;
  Result<engine::RequestHandle> handle = context.engine->submit(std::move(generation));
  if (!handle.ok()) {
    ApiError error = admission_error(handle.error());
    auto headers = retry_after(error);
    co_await exchange.respond_error(std::move(error), std::move(headers));
    co_return;
  }
  ReplyOptions options;
  options.shape = ReplyShape::kText;
  options.stream = request.stream;
  options.include_usage = request.include_usage;
  options.logprobs = request.logprobs;
  options.top_logprobs = request.top_logprobs > 0;
  options.identity = new_identity("cmpl-", request.model, context.system_fingerprint);
  co_await reply_with_generation(exchange, context, std::move(handle).value(), std::move(options));
}

}  // namespace

void add_completion_route(Router& router, ServingContext& context) {
  router.add({http::verb::post, "/v1/completions",
              [&context](HttpExchange& exchange) { return serve_completion(exchange, context); },
              /*requires_auth=*/true, /*json_body=*/true});
}

}  // namespace ingot::server
