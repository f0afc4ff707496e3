#include "server/routes/generation_submission.h"

#include <spdlog/spdlog.h>

#include <string>
#include <utility>
#include <vector>

#include "chat/tool_calls/tool_call_stream.h"
#include "server/openai/chat_response.h"

namespace ingot::server {
namespace {

// The refusal for a request the engine will not take.
ApiError admission_error(const Error& error) {
  ApiError api = api_error_from(error);
  if (error.kind() == ErrorKind::kContextLengthExceeded) {
    api.message = "This request needs more context than the model has: " + error.message() + ".";
  }
  return api;
}

std::vector<std::pair<std::string, std::string>> retry_after(const ApiError& error) {
  if (error.status == 503 || error.status == 429) return {{"Retry-After", "1"}};
  return {};
}

}  // namespace

chat::tool_calls::ToolCallIdGenerator ToolCallReading::ids(
    chat::tool_calls::ToolCallIdStyle dialect) const {
  namespace tools = chat::tool_calls;
  const bool mistral = family && tools::id_style_for(*family) == tools::ToolCallIdStyle::kMistral;
  return tools::ToolCallIdGenerator(id_seed, mistral ? tools::ToolCallIdStyle::kMistral : dialect);
}

chat::tool_calls::ParsedReply ToolCallReading::parse(
    const std::string& content, chat::tool_calls::ToolCallIdStyle dialect) const {
  if (family) return chat::tool_calls::parse_tool_calls(content, *family, ids(dialect), schemas);
  chat::tool_calls::ParsedReply reply;
  reply.content = content;
  return reply;
}

std::optional<chat::tool_calls::ToolCallStreamParser> ToolCallReading::stream_parser(
    chat::tool_calls::ToolCallIdStyle dialect) const {
  if (!family) return std::nullopt;
  return std::optional<chat::tool_calls::ToolCallStreamParser>(std::in_place, *family, ids(dialect),
                                                               schemas);
}

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

asio::awaitable<std::unique_ptr<EngineEvents>> submit_generation(
    HttpExchange& exchange, ServingContext& context, engine::GenerationRequest generation,
    AdmissionOrder::Ticket ticket) {
  Result<std::unique_ptr<EngineEvents>> events =
      try_submit_generation(exchange, context, std::move(generation));
  ticket.release();
  if (!events.ok()) {
    co_await answer_refusal(exchange, events.error());
    co_return nullptr;
  }
  co_return std::move(events).value();
}

Result<std::unique_ptr<EngineEvents>> try_submit_generation(HttpExchange& exchange,
                                                            ServingContext& context,
                                                            engine::GenerationRequest generation) {
  Result<engine::RequestHandle> handle = context.engine->submit(std::move(generation));
  if (!handle.ok()) return handle.error();
  auto events =
      std::make_unique<EngineEvents>(exchange.stream().get_executor(), std::move(handle).value());
  events->watch(exchange.stream().socket());
  return events;
}

asio::awaitable<void> answer_refusal(HttpExchange& exchange, const Error& error) {
  ApiError api = admission_error(error);
  auto headers = retry_after(api);
  co_await exchange.respond_error(std::move(api), std::move(headers));
}

void record_usage(HttpExchange& exchange, ServingContext& context, const engine::Usage& usage) {
  exchange.record().prompt_tokens = usage.prompt_tokens;
  exchange.record().completion_tokens = usage.completion_tokens;
  exchange.record().time_to_first_token_ms = usage.time_to_first_token_ms;
  if (context.metrics == nullptr) return;
  context.metrics->add_tokens(usage.prompt_tokens, usage.completion_tokens);
  if (usage.completion_tokens > 0) {
    context.metrics->observe_time_to_first_token(usage.time_to_first_token_ms / 1000.0);
  }
  if (usage.completion_tokens > 1) {
    double decode_ms = usage.total_ms - usage.time_to_first_token_ms;
    context.metrics->observe_time_per_token(decode_ms / 1000.0 /
                                            static_cast<double>(usage.completion_tokens - 1));
  }
}

void record_cancelled(HttpExchange& exchange, ServingContext& context) {
  exchange.record().cancelled = true;
  if (context.metrics) context.metrics->count_cancelled();
}

std::optional<ApiError> refusal_for_non_generative_model(const ServingContext& context) {
  if (context.reranking_only) {
    return invalid_request("The model '" + context.model_id +
                               "' is a reranking model: it answers POST /v1/rerank, not "
                               "generation requests.",
                           "model", "model_not_generative");
  }
  if (!context.embedding_only) return std::nullopt;
  return invalid_request("The model '" + context.model_id +
                             "' is an embedding model: it answers POST /v1/embeddings, not "
                             "generation requests.",
                         "model", "model_not_generative");
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
