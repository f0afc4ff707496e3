// POST /v1/responses and the stored responses' routes (GET and DELETE
// /v1/responses/{id}, GET /v1/responses/{id}/input_items): OpenAI's
// Responses API on the chat route's rendering, admission, engine and
// tool-call parsers. Every refusal happens before the first byte of a
// reply is written; an error after a stream began is its `error` event.

#include <spdlog/spdlog.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "chat/tool_calls/tool_call_id.h"
#include "chat/tool_calls/tool_call_stream.h"
#include "server/openai/chat_response.h"
#include "server/responses/input_items_page.h"
#include "server/responses/response_store.h"
#include "server/responses/responses_request.h"
#include "server/responses/responses_response.h"
#include "server/routes/generation_submission.h"
#include "server/routes/generative_model.h"
#include "server/routes/parsed_request.h"
#include "server/routes/prompt_building.h"
#include "server/routes/reply_collection.h"
#include "server/routes/routes.h"
#include "server/routes/stream_keep_alive.h"
#include "server/routes/tool_call_reading.h"
#include "server/routes/usage_record.h"
#include "server/routes/watched_preparation.h"

namespace ingot::server::responses {
namespace {

namespace tools = chat::tool_calls;

constexpr const char* kResponsePath = "/v1/responses/{id}";
constexpr const char* kInputItemsPath = "/v1/responses/{id}/input_items";

constexpr tools::ToolCallIdStyle kIdStyle = tools::ToolCallIdStyle::kOpenAI;

// What a finished reply leaves to store: its response object and output.
struct Finished {
  ordered_json response;
  ordered_json output;
};

ApiError response_not_found(const std::string& id, const char* param) {
  ApiError error = invalid_request("Response with id '" + id + "' not found.", param);
  error.status = 404;
  return error;
}

// Kept before the reply's last byte goes out, so that a client continuing
// from it at once finds it.
void store(ServingContext& context, const ResponsesRequest& request, const Finished& finished) {
  if (!request.store) return;
  auto stored = std::make_shared<StoredResponse>();
  stored->response = finished.response;
  stored->input_items = request.input_items;
  stored->conversation = request.conversation;
  for (const ordered_json& item : finished.output) stored->conversation.push_back(item);
  context.responses->put(finished.response["id"], std::move(stored));
}

asio::awaitable<void> reply_whole(HttpExchange& exchange, ServingContext& context,
                                  EngineEvents& events, const ResponsesRequest& request,
                                  const ResponseFrame& frame, const ToolCallReading& calls) {
  std::optional<engine::CollectedReply> reply =
      co_await collect_whole_reply(exchange, context, events);
  if (!reply) co_return;
  const tools::ParsedReply parsed = calls.parse(reply->content, kIdStyle);
  Finished finished;
  finished.output = output_items(reply->reasoning, parsed, frame.tool_namespaces, *reply->finish);
  finished.response = response_object(frame, finished.output, &*reply->finish);
  store(context, request, finished);
  co_await exchange.respond(http::status::ok, dump(finished.response), "application/json");
}

std::vector<StreamEvent> text_events(ResponseEvents& writer,
                                     std::optional<tools::ToolCallStreamParser>& parser,
                                     const engine::TextEvent& text) {
  std::vector<StreamEvent> out = writer.reasoning(text.reasoning);
  std::vector<StreamEvent> content =
      parser ? parsed_events(writer, parser->push(text.content)) : writer.text(text.content);
  for (StreamEvent& event : content) out.push_back(std::move(event));
  return out;
}

asio::awaitable<void> reply_stream(HttpExchange& exchange, ServingContext& context,
                                   EngineEvents& events, const ResponsesRequest& request,
                                   const ResponseFrame& frame, const ToolCallReading& calls) {
  ResponseEvents writer(frame);
  std::optional<tools::ToolCallStreamParser> parser = calls.stream_parser(kIdStyle);
  if (!co_await exchange.begin_event_stream() || !co_await send_events(exchange, writer.start())) {
    record_cancelled(exchange, context);
    co_return;
  }
  for (;;) {
    std::optional<engine::Event> event = co_await next_event_keeping_alive(exchange, events);
    if (!event) {
      record_cancelled(exchange, context);
      co_return;
    }
    if (auto* text = std::get_if<engine::TextEvent>(&*event)) {
      if (!co_await send_events(exchange, text_events(writer, parser, *text))) {
        record_cancelled(exchange, context);  // the write failed: the client is gone
        co_return;
      }
      continue;
    }
    if (auto* failed = std::get_if<engine::ErrorEvent>(&*event)) {
      spdlog::error("generation failed mid-stream: {}", failed->error.describe());
      if (co_await send_events(exchange, writer.fail(generation_failed(failed->error)))) {
        co_await exchange.end_event_stream();
      }
      co_return;
    }
    const auto& finish = std::get<engine::FinishEvent>(*event);
    record_usage(exchange, context, finish.usage);
    std::vector<StreamEvent> out;
    if (finish.reason == engine::FinishReason::kCancelled) {
      record_cancelled(exchange, context);
      out = writer.fail(cancelled_by_shutdown());
    } else {
      if (parser) out = parsed_events(writer, parser->finish());
      for (StreamEvent& e : writer.finish(finish)) out.push_back(std::move(e));
    }
    if (finish.reason != engine::FinishReason::kCancelled) {
      store(context, request, Finished{out.back().data["response"], writer.output()});
    }
    if (co_await send_events(exchange, std::move(out))) co_await exchange.end_event_stream();
    co_return;
  }
}

// The conversation previous_response_id continues, or a refusal answered.
asio::awaitable<std::optional<ordered_json>> read_prior(HttpExchange& exchange,
                                                        ServingContext& context,
                                                        const ordered_json& body) {
  auto previous = read_previous_response_id(body);
  if (auto* error = std::get_if<ApiError>(&previous)) {
    co_await exchange.respond_error(std::move(*error));
    co_return std::nullopt;
  }
  const auto& id = std::get<std::optional<std::string>>(previous);
  if (!id) co_return ordered_json::array();
  std::shared_ptr<const StoredResponse> stored = context.responses->get(*id);
  if (!stored) {
    ApiError error = response_not_found(*id, "previous_response_id");
    co_await exchange.respond_error(std::move(error));
    co_return std::nullopt;
  }
  co_return stored->conversation;
}

asio::awaitable<std::optional<ResponsesRequest>> read_request(HttpExchange& exchange,
                                                              ServingContext& context) {
  std::optional<ordered_json> body = co_await read_json_or_answer(exchange, context);
  if (!body) co_return std::nullopt;
  const ordered_json& json = *body;
  std::optional<ordered_json> prior = co_await read_prior(exchange, context, json);
  if (!prior) co_return std::nullopt;
  RequestLimits limits{context.identity.model_ids(), context.defaults.max_tokens_cap};
  auto parsed = co_await off_io_thread(context, exchange, [&json, &limits, &prior] {
    return parse_responses_request(json, limits, *prior);
  });
  if (auto* error = std::get_if<ApiError>(&parsed)) {
    co_await exchange.respond_error(std::move(*error));
    co_return std::nullopt;
  }
  co_return std::move(std::get<ResponsesRequest>(parsed));
}

// Hosted tools the request offered and the model is not shown: said in a
// header of the reply and in the log.
void announce_dropped_tools(HttpExchange& exchange, const std::vector<std::string>& dropped) {
  if (dropped.empty()) return;
  std::string types;
  for (const std::string& type : dropped) types += (types.empty() ? "" : ", ") + type;
  spdlog::warn("responses: hosted tools left out of the prompt (this server cannot run them): {}",
               types);
  exchange.add_header("x-ingot-dropped-tools", std::move(types));
}

asio::awaitable<void> serve_create(HttpExchange& exchange, ServingContext& context) {
  if (co_await answer_if(exchange, refusal_for_non_generative_model(context))) co_return;
  std::optional<ResponsesRequest> request = co_await read_request(exchange, context);
  if (!request) co_return;
  announce_dropped_tools(exchange, request->dropped_tools);
  const ChatRequest& chat = request->chat;
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
  co_await ticket->wait_turn();
  std::unique_ptr<EngineEvents> events = co_await submit_generation(
      exchange, context, std::move(ready.generation), std::move(*ticket), chat.stream);
  if (!events) co_return;
  const ResponseFrame frame =
      new_response_frame(chat.model, request->settings, request->tool_namespaces);
  if (chat.stream) {
    co_await reply_stream(exchange, context, *events, *request, frame, calls);
  } else {
    co_await reply_whole(exchange, context, *events, *request, frame, calls);
  }
}

// The stored response the path names, or its 404 answered.
asio::awaitable<std::shared_ptr<const StoredResponse>> stored_at(HttpExchange& exchange,
                                                                 ServingContext& context,
                                                                 const char* pattern) {
  const std::string id = path_parameter(pattern, exchange.path(), "id");
  std::shared_ptr<const StoredResponse> stored = context.responses->get(id);
  if (!stored) {
    ApiError error = response_not_found(id, "response_id");
    co_await exchange.respond_error(std::move(error));
  }
  co_return stored;
}

asio::awaitable<void> serve_retrieve(HttpExchange& exchange, ServingContext& context) {
  std::shared_ptr<const StoredResponse> stored =
      co_await stored_at(exchange, context, kResponsePath);
  if (!stored) co_return;
  co_await exchange.respond(http::status::ok, dump(stored->response), "application/json");
}

asio::awaitable<void> serve_delete(HttpExchange& exchange, ServingContext& context) {
  const std::string id = path_parameter(kResponsePath, exchange.path(), "id");
  if (!context.responses->erase(id)) {
    ApiError error = response_not_found(id, "response_id");
    co_await exchange.respond_error(std::move(error));
    co_return;
  }
  const nlohmann::json deleted = {{"id", id}, {"object", "response"}, {"deleted", true}};
  co_await exchange.respond_json(http::status::ok, deleted);
}

asio::awaitable<void> serve_input_items(HttpExchange& exchange, ServingContext& context) {
  std::shared_ptr<const StoredResponse> stored =
      co_await stored_at(exchange, context, kInputItemsPath);
  if (!stored) co_return;
  const auto target = exchange.request().target();
  auto page = input_items_page(stored->input_items, std::string_view(target.data(), target.size()));
  if (auto* error = std::get_if<ApiError>(&page)) {
    co_await exchange.respond_error(std::move(*error));
    co_return;
  }
  co_await exchange.respond(http::status::ok, dump(std::get<ordered_json>(page)),
                            "application/json");
}

}  // namespace
}  // namespace ingot::server::responses

namespace ingot::server {

void add_responses_routes(Router& router, ServingContext& context) {
  router.add(
      {http::verb::post, "/v1/responses",
       [&context](HttpExchange& exchange) { return responses::serve_create(exchange, context); },
       /*requires_auth=*/true, /*json_body=*/true});
  router.add({http::verb::get, responses::kResponsePath, [&context](HttpExchange& exchange) {
                return responses::serve_retrieve(exchange, context);
              }});
  router.add({http::verb::delete_, responses::kResponsePath, [&context](HttpExchange& exchange) {
                return responses::serve_delete(exchange, context);
              }});
  router.add({http::verb::get, responses::kInputItemsPath, [&context](HttpExchange& exchange) {
                return responses::serve_input_items(exchange, context);
              }});
}

}  // namespace ingot::server
