#pragma once
// The opening every JSON route shares: the body parsed as strict JSON, then
// as the route's request by `parse(body, limits)` (a request, or an
// ApiError). A body or request that does not parse is answered here, and
// nothing comes back; the route goes on with the request otherwise.

#include <nlohmann/json.hpp>
#include <optional>
#include <utility>
#include <variant>

#include "server/api_error.h"
#include "server/http/http_exchange.h"
#include "server/openai/generation_fields.h"
#include "server/openai/json_body.h"
#include "server/serving_context.h"

namespace ingot::server {

template <class Request, class Parse>
asio::awaitable<std::optional<Request>> parse_request_or_answer(HttpExchange& exchange,
                                                                const ServingContext& context,
                                                                Parse parse) {
  auto body = parse_json_body(exchange.request().body());
  if (auto* error = std::get_if<ApiError>(&body)) {
    co_await exchange.respond_error(std::move(*error));
    co_return std::nullopt;
  }
  const RequestLimits limits{context.identity.model_ids(), context.defaults.max_tokens_cap};
  auto parsed = parse(std::get<nlohmann::ordered_json>(body), limits);
  if (auto* error = std::get_if<ApiError>(&parsed)) {
    co_await exchange.respond_error(std::move(*error));
    co_return std::nullopt;
  }
  co_return std::move(std::get<Request>(parsed));
}

// Answers `refusal` when there is one; whether it did.
inline asio::awaitable<bool> answer_if(HttpExchange& exchange, std::optional<ApiError> refusal) {
  if (!refusal) co_return false;
  co_await exchange.respond_error(std::move(*refusal));
  co_return true;
}

}  // namespace ingot::server
