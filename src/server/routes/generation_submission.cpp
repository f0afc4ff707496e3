#include "server/routes/generation_submission.h"

#include <string>
#include <utility>
#include <vector>

namespace ingot::server {
namespace {

// The field that holds a route's prompt, in the route's own terms.
std::string prompt_field_of(std::string_view path) {
  if (path == "/v1/completions") return "prompt";
  if (path.starts_with("/v1/responses")) return "input";
  return "messages";
}

// The refusal for a request the engine will not take.
ApiError admission_error(const Error& error, std::string_view path) {
  ApiError api = api_error_from(error);
  if (error.kind() == ErrorKind::kContextLengthExceeded) {
    api.message = "This request needs more context than the model has: " + error.message() + ".";
    api.param = prompt_field_of(path);
  }
  return api;
}

}  // namespace

asio::awaitable<std::unique_ptr<EngineEvents>> submit_generation(
    HttpExchange& exchange, ServingContext& context, engine::GenerationRequest generation,
    AdmissionOrder::Ticket ticket, bool streamed) {
  Result<std::unique_ptr<EngineEvents>> events =
      try_submit_generation(exchange, context, std::move(generation), streamed);
  ticket.release();
  if (!events.ok()) {
    co_await answer_refusal(exchange, events.error());
    co_return nullptr;
  }
  co_return std::move(events).value();
}

Result<std::unique_ptr<EngineEvents>> try_submit_generation(HttpExchange& exchange,
                                                            ServingContext& context,
                                                            engine::GenerationRequest generation,
                                                            bool streamed) {
  Result<engine::RequestHandle> handle = context.engine->submit(std::move(generation));
  if (!handle.ok()) return handle.error();
  auto events =
      std::make_unique<EngineEvents>(exchange.stream().get_executor(), std::move(handle).value());
  events->watch(exchange.stream().socket(), streamed ? EngineEvents::EndOfInput::kLeftToWrites
                                                     : EngineEvents::EndOfInput::kLeaves);
  return events;
}

asio::awaitable<void> answer_refusal(HttpExchange& exchange, const Error& error) {
  // respond_error says when to retry a 429 or a 503.
  co_await exchange.respond_error(admission_error(error, exchange.path()));
}

}  // namespace ingot::server
