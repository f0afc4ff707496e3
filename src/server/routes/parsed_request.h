#pragma once
// The opening every JSON route shares: the body parsed as strict JSON, then
// as the route's request by `parse(body, limits)` (a request, or an
// ApiError). A body or request that does not parse is answered here, and
// nothing comes back; the route goes on with the request otherwise. Both
// parses run on the prompt pool: a body of several MiB takes long enough
// to stall every connection the I/O thread serves.

#include <nlohmann/json.hpp>
#include <optional>
#include <string_view>
#include <utility>
#include <variant>

#include "server/api_error.h"
#include "server/http/http_exchange.h"
#include "server/openai/generation_fields.h"
#include "server/openai/json_body.h"
#include "server/routes/off_io_thread.h"
#include "server/serving_context.h"

namespace ingot::server {

// The body as JSON, or nothing once its refusal is answered.
inline asio::awaitable<std::optional<nlohmann::ordered_json>> read_json_or_answer(
    HttpExchange& exchange, ServingContext& context) {
  std::string_view text = exchange.request().body();
  auto body = co_await off_io_thread(context, exchange, [text] { return parse_json_body(text); });
  if (auto* error = std::get_if<ApiError>(&body)) {
    co_await exchange.respond_error(std::move(*error));
    co_return std::nullopt;
  }
  co_return std::move(std::get<nlohmann::ordered_json>(body));
}

template <class Request, class Parse>
asio::awaitable<std::optional<Request>> parse_request_or_answer(HttpExchange& exchange,
                                                                ServingContext& context,
                                                                Parse parse) {
  std::optional<nlohmann::ordered_json> body = co_await read_json_or_answer(exchange, context);
  if (!body) co_return std::nullopt;
  const RequestLimits limits{context.identity.model_ids(), context.defaults.max_tokens_cap};
  auto parsed = co_await off_io_thread(context, exchange,
                                       [&body, &limits, &parse] { return parse(*body, limits); });
  if (auto* error = std::get_if<ApiError>(&parsed)) {
    co_await exchange.respond_error(std::move(*error));
    co_return std::nullopt;
  }
  co_return std::move(std::get<Request>(parsed));
}

// A place in the admission order, or nothing once the refusal (too many
// requests already between arrival and the engine) is answered.
inline asio::awaitable<std::optional<AdmissionOrder::Ticket>> take_ticket_or_answer(
    HttpExchange& exchange, ServingContext& context) {
  std::optional<AdmissionOrder::Ticket> ticket = context.admission.take();
  if (ticket) co_return ticket;
  ApiError busy{503, "server_error",
                "The server is busy: too many requests are waiting. Retry shortly.", std::nullopt,
                "server_busy"};
  co_await exchange.respond_error(std::move(busy));
  co_return std::nullopt;
}

// Answers `refusal` when there is one; whether it did.
inline asio::awaitable<bool> answer_if(HttpExchange& exchange, std::optional<ApiError> refusal) {
  if (!refusal) co_return false;
  co_await exchange.respond_error(std::move(*refusal));
  co_return true;
}

}  // namespace ingot::server
