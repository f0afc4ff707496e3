// POST /v1/chat/completions: validate, render, tokenize, admit, answer.
// Every refusal happens here, before the first byte of a reply is written.

#include <spdlog/spdlog.h>

#include <string>
#include <vector>

#include "server/openai/chat_request.h"
#include "server/openai/json_body.h"
#include "server/routes/generation_reply.h"
#include "server/routes/generative_model.h"
#include "server/routes/parsed_request.h"
#include "server/routes/prompt_building.h"
#include "server/routes/routes.h"
#include "server/routes/watched_preparation.h"

namespace ingot::server {

namespace {

// Headers are bounded; the log line is not.
constexpr size_t kMaxRelaxedHeader = 2048;

// The schema assertions dropped for this request, in a response header and
// a log line, so that a client can tell what the grammar did not enforce.
void announce_relaxed(HttpExchange& exchange, const std::vector<std::string>& relaxed) {
  std::string all;
  for (const std::string& entry : relaxed) all += (all.empty() ? "" : ", ") + entry;
  spdlog::info("schema relaxed: {}", all);
  std::string header;
  size_t shown = 0;
  for (const std::string& entry : relaxed) {
    if (header.size() + entry.size() + 2 > kMaxRelaxedHeader) break;
    header += (header.empty() ? "" : ", ") + entry;
    ++shown;
  }
  if (shown < relaxed.size())
    header += " (and " + std::to_string(relaxed.size() - shown) + " more)";
  exchange.add_header("x-ingot-relaxed", std::move(header));
}

asio::awaitable<void> serve_chat(HttpExchange& exchange, ServingContext& context) {
  if (co_await answer_if(exchange, refusal_for_non_generative_model(context))) co_return;
  const std::optional<ChatRequest> parsed =
      co_await parse_request_or_answer<ChatRequest>(exchange, context, parse_chat_request);
  if (!parsed) co_return;
  const ChatRequest& request = *parsed;
  std::optional<AdmissionOrder::Ticket> ticket = co_await take_ticket_or_answer(exchange, context);
  if (!ticket) co_return;
  auto generation =
      co_await prepare_watched(context, exchange, *ticket, request.stream,
                               [&request, &context](const GrammarCompileWatch& watch) {
                                 return build_chat_generation(request, context, watch);
                               });
  if (auto* error = std::get_if<ApiError>(&generation)) {
    ticket->release();
    co_await exchange.respond_error(std::move(*error));
    co_return;
  }
  ChatGeneration& ready = std::get<ChatGeneration>(generation);
  if (!ready.relaxed.empty()) announce_relaxed(exchange, ready.relaxed);
  ToolCallReading tool_calls;
  tool_calls.family = ready.tool_call_family;
  tool_calls.schemas = ready.tool_schemas;
  tool_calls.id_seed = ready.generation.sampling.seed;
  co_await ticket->wait_turn();
  co_await submit_and_reply(exchange, context, std::move(ready.generation), request,
                            ReplyShape::kChat, tool_calls, {}, std::move(*ticket));
}

}  // namespace

void add_chat_route(Router& router, ServingContext& context) {
  router.add({http::verb::post, "/v1/chat/completions",
              [&context](HttpExchange& exchange) { return serve_chat(exchange, context); },
              /*requires_auth=*/true, /*json_body=*/true});
}

}  // namespace ingot::server
