#include "server/routes/reply_collection.h"

#include <spdlog/spdlog.h>

#include <string>
#include <utility>

#include "server/openai/chat_response.h"
#include "server/routes/usage_record.h"

namespace ingot::server {

asio::awaitable<std::optional<engine::CollectedReply>> collect_whole_reply(HttpExchange& exchange,
                                                                           ServingContext& context,
                                                                           EngineEvents& events) {
  engine::CollectedReply reply;
  for (;;) {
    std::optional<engine::Event> event = co_await events.next();
    if (!event) {
      record_cancelled(exchange, context);
      co_return std::nullopt;  // nobody to answer
    }
    if (auto* text = std::get_if<engine::TextEvent>(&*event)) {
      reply.content += text->content;
      reply.reasoning += text->reasoning;
      for (auto& token : text->tokens) reply.tokens.push_back(std::move(token));
    } else if (auto* finish = std::get_if<engine::FinishEvent>(&*event)) {
      reply.finish = *finish;
      break;
    } else {
      const Error& error = std::get<engine::ErrorEvent>(*event).error;
      spdlog::error("generation failed: {}", error.describe());
      ApiError api = generation_failed(error);
      co_await exchange.respond_error(std::move(api));
      co_return std::nullopt;
    }
  }
  record_usage(exchange, context, reply.finish->usage);
  if (reply.finish->reason == engine::FinishReason::kCancelled) {
    record_cancelled(exchange, context);
    ApiError api = cancelled_by_shutdown();
    co_await exchange.respond_error(std::move(api));
    co_return std::nullopt;
  }
  co_return reply;
}

asio::awaitable<bool> send_events(HttpExchange& exchange, std::vector<StreamEvent> events) {
  for (const StreamEvent& event : events) {
    const std::string data = dump(event.data);
    if (!co_await exchange.send_event(data, event.name)) co_return false;
  }
  co_return true;
}

ApiError generation_failed(const Error& error) {
  ApiError api = api_error_from(error);
  if (api.status == 500 || error.kind() == ErrorKind::kCancelled) {
    api = ApiError{503, "server_error", "Generation failed: " + error.describe(), std::nullopt,
                   "generation_failed"};
  }
  return api;
}

ApiError cancelled_by_shutdown() {
  return ApiError{503, "server_error", "The request was cancelled (the server is shutting down).",
                  std::nullopt, "cancelled"};
}

}  // namespace ingot::server
