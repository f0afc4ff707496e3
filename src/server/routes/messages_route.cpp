// POST /v1/messages and /v1/messages/count_tokens: Anthropic's Messages API
// on the chat route's rendering, admission, engine and tool-call parsers.
// Every refusal happens before the first byte of a reply is written, in
// Anthropic's error envelope (ApiError, dialect by path).

#include <spdlog/spdlog.h>

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "chat/tool_calls/tool_call_id.h"
#include "chat/tool_calls/tool_call_stream.h"
#include "server/anthropic/messages_request.h"
#include "server/anthropic/messages_response.h"
#include "server/openai/chat_response.h"
#include "server/openai/json_body.h"
#include "server/routes/generation_submission.h"
#include "server/routes/generative_model.h"
#include "server/routes/parsed_request.h"
#include "server/routes/prompt_building.h"
#include "server/routes/reply_collection.h"
#include "server/routes/routes.h"
#include "server/routes/tool_call_reading.h"
#include "server/routes/usage_record.h"
#include "server/routes/watched_preparation.h"

namespace ingot::server {
namespace {

namespace tools = chat::tool_calls;
using anthropic::MessageEvents;
using anthropic::MessageIdentity;

constexpr tools::ToolCallIdStyle kIdStyle = tools::ToolCallIdStyle::kAnthropic;

// A stream that has nothing to say this long (a long prefill, a queue)
// says `ping`, as Anthropic's do, so that clients and proxies with idle
// timeouts keep it open.
constexpr std::chrono::seconds kPingEvery{5};

asio::awaitable<void> reply_whole(HttpExchange& exchange, ServingContext& context,
                                  EngineEvents& events, const MessageIdentity& identity,
                                  const ToolCallReading& calls) {
  std::optional<engine::CollectedReply> reply =
      co_await collect_whole_reply(exchange, context, events);
  if (!reply) co_return;
  const tools::ParsedReply parsed = calls.parse(reply->content, kIdStyle);
  const std::string body =
      dump(anthropic::whole_message(identity, reply->reasoning, parsed, *reply->finish));
  co_await exchange.respond(http::status::ok, body, "application/json");
}

// The content of a text event as blocks, through the call parser when the
// request has tools.
std::vector<StreamEvent> content_events(MessageEvents& writer,
                                        std::optional<tools::ToolCallStreamParser>& parser,
                                        const std::string& text) {
  return parser ? parsed_events(writer, parser->push(text)) : writer.text(text);
}

asio::awaitable<void> reply_stream(HttpExchange& exchange, ServingContext& context,
                                   EngineEvents& events, const MessageIdentity& identity,
                                   const ToolCallReading& calls, int64_t prompt_tokens) {
  MessageEvents writer(identity);
  std::optional<tools::ToolCallStreamParser> parser = calls.stream_parser(kIdStyle);
  engine::Usage prompt_usage;
  prompt_usage.prompt_tokens = prompt_tokens;
  if (!co_await exchange.begin_event_stream() ||
      !co_await send_events(exchange, writer.start(prompt_usage))) {
    record_cancelled(exchange, context);
    co_return;
  }
  for (;;) {
    bool quiet = false;
    std::optional<engine::Event> event = co_await events.next_within(kPingEvery, quiet);
    if (quiet) {
      std::vector<StreamEvent> ping{writer.ping()};
      if (co_await send_events(exchange, std::move(ping))) continue;
      record_cancelled(exchange, context);
      co_return;
    }
    if (!event) {
      record_cancelled(exchange, context);
      co_return;
    }
    if (auto* text = std::get_if<engine::TextEvent>(&*event)) {
      std::vector<StreamEvent> out = writer.thinking(text->reasoning);
      for (StreamEvent& e : content_events(writer, parser, text->content)) {
        out.push_back(std::move(e));
      }
      if (!co_await send_events(exchange, std::move(out))) {
        record_cancelled(exchange, context);  // the write failed: the client is gone
        co_return;
      }
      continue;
    }
    if (auto* failed = std::get_if<engine::ErrorEvent>(&*event)) {
      // Too late for a status code: the stream ends with an error event.
      spdlog::error("generation failed mid-stream: {}", failed->error.describe());
      const std::string error = generation_failed(failed->error).to_json(ErrorDialect::kAnthropic);
      co_await exchange.send_event(error, "error");
      co_await exchange.end_event_stream();
      co_return;
    }
    const auto& finish = std::get<engine::FinishEvent>(*event);
    record_usage(exchange, context, finish.usage);
    if (finish.reason == engine::FinishReason::kCancelled) record_cancelled(exchange, context);
    std::vector<StreamEvent> out;
    size_t call_count = 0;
    if (parser) {
      out = parsed_events(writer, parser->finish());
      call_count = parser->call_count();
    }
    for (StreamEvent& e : writer.finish(finish, call_count)) out.push_back(std::move(e));
    if (co_await send_events(exchange, std::move(out))) co_await exchange.end_event_stream();
    co_return;
  }
}

// Parses and validates; on a refusal answers it and returns nothing.
asio::awaitable<std::optional<ChatRequest>> read_request(HttpExchange& exchange,
                                                         ServingContext& context,
                                                         anthropic::MessagesCall call) {
  co_return co_await parse_request_or_answer<ChatRequest>(
      exchange, context, [call](const ordered_json& body, const RequestLimits& limits) {
        return anthropic::parse_messages_request(body, limits, call);
      });
}

asio::awaitable<void> serve_messages(HttpExchange& exchange, ServingContext& context) {
  if (co_await answer_if(exchange, refusal_for_non_generative_model(context))) co_return;
  std::optional<ChatRequest> request =
      co_await read_request(exchange, context, anthropic::MessagesCall::kCreate);
  if (!request) co_return;
  const ChatRequest& chat = *request;
  std::optional<AdmissionOrder::Ticket> ticket = co_await take_ticket_or_answer(exchange, context);
  if (!ticket) co_return;
  auto generation = co_await prepare_watched(context, exchange, *ticket, chat.stream,
                                             [&chat, &context](const GrammarCompileWatch& watch) {
                                               return build_chat_generation(chat, context, watch);
                                             });
  if (auto* error = std::get_if<ApiError>(&generation)) {
    ticket->release();
    co_await exchange.respond_error(std::move(*error));
    co_return;
  }
  ChatGeneration& ready = std::get<ChatGeneration>(generation);
  const ToolCallReading calls{ready.tool_call_family, ready.generation.sampling.seed,
                              ready.tool_schemas};
  const int64_t prompt_tokens = static_cast<int64_t>(ready.generation.prompt.size());
  co_await ticket->wait_turn();
  std::unique_ptr<EngineEvents> events = co_await submit_generation(
      exchange, context, std::move(ready.generation), std::move(*ticket), chat.stream);
  if (!events) co_return;
  const MessageIdentity identity = anthropic::new_message_identity(chat.model);
  if (chat.stream) {
    co_await reply_stream(exchange, context, *events, identity, calls, prompt_tokens);
  } else {
    co_await reply_whole(exchange, context, *events, identity, calls);
  }
}

// The prompt's tokens as /v1/messages would render them.
asio::awaitable<void> serve_count_tokens(HttpExchange& exchange, ServingContext& context) {
  std::optional<ChatRequest> request =
      co_await read_request(exchange, context, anthropic::MessagesCall::kCountTokens);
  if (!request) co_return;
  const ChatRequest& chat = *request;
  auto generation = co_await off_io_thread(
      context, exchange, [&chat, &context] { return build_chat_generation(chat, context); });
  if (auto* error = std::get_if<ApiError>(&generation)) {
    co_await exchange.respond_error(std::move(*error));
    co_return;
  }
  // A named local: GCC 12 mishandles temporaries that live across a suspension.
  const nlohmann::json counted = {
      {"input_tokens", std::get<ChatGeneration>(generation).generation.prompt.size()}};
  co_await exchange.respond_json(http::status::ok, counted);
}

}  // namespace

void add_messages_routes(Router& router, ServingContext& context) {
  router.add({http::verb::post, "/v1/messages",
              [&context](HttpExchange& exchange) { return serve_messages(exchange, context); },
              /*requires_auth=*/true, /*json_body=*/true});
  router.add({http::verb::post, "/v1/messages/count_tokens",
              [&context](HttpExchange& exchange) { return serve_count_tokens(exchange, context); },
              /*requires_auth=*/true, /*json_body=*/true});
}

}  // namespace ingot::server
