#pragma once
// What every dialect's reply does alike: hand the generation to the engine
// (answering a refusal before any reply byte), and record what it cost.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "chat/tool_calls/argument_typing.h"
#include "chat/tool_calls/tool_call_family.h"
#include "chat/tool_calls/tool_call_id.h"
#include "chat/tool_calls/tool_call_stream.h"
#include "chat/tool_calls/tool_call_types.h"
#include "engine/generation_request.h"
#include "engine/request_handle.h"
#include "server/admission_order.h"
#include "server/api_error.h"
#include "server/engine_events.h"
#include "server/http/http_exchange.h"
#include "server/serving_context.h"
#include "server/stream_event.h"

namespace ingot::server {

// How a chat reply is read for tool calls: not at all, or in one family's
// syntax with ids drawn from a seed (the request's, so that a streamed and
// a whole reply with the same seed name their calls alike).
struct ToolCallReading {
  std::optional<chat::tool_calls::ToolCallFamily> family;
  uint64_t id_seed = 0;
  // The offered tools' parameter schemas, which type the arguments of the
  // syntaxes that write them as text.
  chat::tool_calls::ToolSchemas schemas;

  // Ids in the dialect's style, except where the template insists on
  // Mistral's.
  chat::tool_calls::ToolCallIdGenerator ids(chat::tool_calls::ToolCallIdStyle dialect) const;
  // A whole reply's content read for calls (all of it content when the
  // request has no tools).
  chat::tool_calls::ParsedReply parse(const std::string& content,
                                      chat::tool_calls::ToolCallIdStyle dialect) const;
  // The parser of a streamed reply; none when the request has no tools.
  std::optional<chat::tool_calls::ToolCallStreamParser> stream_parser(
      chat::tool_calls::ToolCallIdStyle dialect) const;
};

// What a stream's tool-call parser let out, as a dialect writer's events:
// its content, then its calls.
template <typename Writer>
std::vector<StreamEvent> parsed_events(Writer& writer, const chat::tool_calls::ReplyDelta& delta) {
  std::vector<StreamEvent> out = writer.text(delta.content);
  for (const chat::tool_calls::ToolCallDelta& call : delta.tool_calls) {
    for (StreamEvent& event : writer.tool_call(call)) out.push_back(std::move(event));
  }
  return out;
}

// Sends the events in order; false once the client is gone.
asio::awaitable<bool> send_events(HttpExchange& exchange, std::vector<StreamEvent> events);

// Submits `generation`. On a refusal (full queue, context exceeded,
// shutting down) answers it and returns null; else the request's events,
// watching the client's socket. `ticket` is released once the engine has
// taken or refused the request.
asio::awaitable<std::unique_ptr<EngineEvents>> submit_generation(
    HttpExchange& exchange, ServingContext& context, engine::GenerationRequest generation,
    AdmissionOrder::Ticket ticket);
// As submit_generation, but a refusal is returned, not answered.
Result<std::unique_ptr<EngineEvents>> try_submit_generation(HttpExchange& exchange,
                                                            ServingContext& context,
                                                            engine::GenerationRequest generation);
// Answers the engine's refusal of a request.
asio::awaitable<void> answer_refusal(HttpExchange& exchange, const Error& error);

// A whole reply, read to its finish; usage recorded. Nothing when the
// client is gone, or when the reply was answered already: an engine error,
// or a shutdown that cancelled it.
asio::awaitable<std::optional<engine::CollectedReply>> collect_whole_reply(HttpExchange& exchange,
                                                                           ServingContext& context,
                                                                           EngineEvents& events);

// Token counts and timings into the access log and the metrics.
void record_usage(HttpExchange& exchange, ServingContext& context, const engine::Usage& usage);
void record_cancelled(HttpExchange& exchange, ServingContext& context);

// The refusal of a generation route for a model that only embeds or only
// ranks, saying what it serves; nothing when the model generates.
std::optional<ApiError> refusal_for_non_generative_model(const ServingContext& context);

// How a generation that failed after admission is answered.
ApiError generation_failed(const Error& error);
// How a whole reply that shutdown cancelled is answered.
ApiError cancelled_by_shutdown();

}  // namespace ingot::server
