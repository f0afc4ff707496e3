#include "server/routes/generation_reply.h"

#include <spdlog/spdlog.h>

#include "chat/tool_calls/openai_json.h"
#include "chat/tool_calls/tool_call_id.h"
#include "chat/tool_calls/tool_call_stream.h"
#include "server/engine_events.h"
#include "server/openai/completion_response.h"
#include "server/routes/generation_submission.h"
#include "server/routes/reply_collection.h"
#include "server/routes/stream_keep_alive.h"
#include "server/routes/tool_call_reading.h"
#include "server/routes/usage_record.h"

namespace ingot::server {
namespace {

namespace tools = chat::tool_calls;

struct ReplyOptions {
  ReplyShape shape = ReplyShape::kChat;
  bool stream = false;
  bool include_usage = false;
  bool logprobs = false;
  bool top_logprobs = false;
  CompletionIdentity identity;
  ToolCallReading tool_calls;
  TextEcho echo;
  bool scores_prompt = false;  // the engine sends the prompt's tokens (echo with logprobs)
};

// A reply that made calls and ended by itself ends for them.
ordered_json finish_reason_json(engine::FinishReason reason, size_t calls) {
  if (calls > 0 && reason == engine::FinishReason::kStop) return "tool_calls";
  return finish_reason_name(reason);
}

// Builds the JSON of every message of one reply, chat or text shaped. A
// text reply's logprob offsets run on from chunk to chunk, so the writer
// keeps where the text is.
class ReplyWriter {
 public:
  ReplyWriter(const ReplyOptions& options, const tokenizer::Tokenizer& tokenizer)
      : options_(options),
        tokenizer_(tokenizer),
        text_offset_(options.echo.prompt ? 0 : options.echo.prompt_bytes) {}

  ordered_json chunk(ordered_json delta, const ordered_json& finish_reason,
                     const std::vector<engine::GeneratedToken>* tokens) {
    ordered_json choice;
    choice["index"] = 0;
    if (options_.shape == ReplyShape::kChat) {
      choice["delta"] = std::move(delta);
    } else {
      choice["text"] = delta.value("content", std::string());
    }
    choice["logprobs"] = tokens && options_.logprobs ? logprobs(*tokens) : ordered_json(nullptr);
    choice["finish_reason"] = finish_reason;
    ordered_json json =
        envelope(options_.shape == ReplyShape::kChat ? "chat.completion.chunk" : "text_completion");
    json["choices"] = ordered_json::array({std::move(choice)});
    if (options_.include_usage) json["usage"] = nullptr;
    return json;
  }

  ordered_json usage_chunk(const engine::Usage& usage) const {
    ordered_json json =
        envelope(options_.shape == ReplyShape::kChat ? "chat.completion.chunk" : "text_completion");
    json["choices"] = ordered_json::array();
    json["usage"] = usage_json(usage);
    return json;
  }

  ordered_json whole(const engine::CollectedReply& reply) {
    ordered_json choice;
    choice["index"] = 0;
    size_t calls = 0;
    if (options_.shape == ReplyShape::kChat) {
      choice["message"] = message(reply, calls);
    } else {
      choice["text"] = reply.content;
    }
    choice["logprobs"] = options_.logprobs ? logprobs(reply.tokens) : ordered_json(nullptr);
    choice["finish_reason"] = finish_reason_json(reply.finish->reason, calls);
    ordered_json json =
        envelope(options_.shape == ReplyShape::kChat ? "chat.completion" : "text_completion");
    json["choices"] = ordered_json::array({std::move(choice)});
    json["usage"] = usage_json(reply.finish->usage);
    return json;
  }

 private:
  // The assistant message of a whole chat reply; with tools, its content is
  // what the calls leave and `calls` counts them.
  ordered_json message(const engine::CollectedReply& reply, size_t& calls) const {
    ordered_json message;
    message["role"] = "assistant";
    message["content"] = reply.content;
    if (!reply.reasoning.empty()) message["reasoning_content"] = reply.reasoning;
    if (!options_.tool_calls.family) return message;
    tools::ParsedReply parsed =
        options_.tool_calls.parse(reply.content, tools::ToolCallIdStyle::kOpenAI);
    message["content"] = parsed.content ? ordered_json(*parsed.content) : ordered_json(nullptr);
    if (!parsed.tool_calls.empty()) {
      ordered_json& list = message["tool_calls"] = ordered_json::array();
      for (const auto& call : parsed.tool_calls) list.push_back(tools::tool_call_json(call));
    }
    calls = parsed.tool_calls.size();
    return message;
  }

  ordered_json envelope(const char* object) const {
    ordered_json json;
    json["id"] = options_.identity.id;
    json["object"] = object;
    json["created"] = options_.identity.created;
    json["model"] = options_.identity.model;
    json["system_fingerprint"] = options_.identity.system_fingerprint;
    return json;
  }

  // The chat shape, or the legacy completions shape, whose text offsets
  // run on from chunk to chunk.
  ordered_json logprobs(const std::vector<engine::GeneratedToken>& tokens) {
    auto piece_of = [this](int32_t id) { return tokenizer_.token_to_piece(id); };
    if (options_.shape == ReplyShape::kText) {
      return legacy_logprobs_json(
          tokens, piece_of, [this](const auto& t) { return text_bytes(t); }, text_offset_);
    }
    return logprobs_json(tokens, options_.top_logprobs, piece_of);
  }

  // What a token adds to the reply's text: nothing for a hidden control
  // token (an echoed BOS), its piece less the space prefix for the first
  // visible token of an echoed prompt.
  size_t text_bytes(const engine::GeneratedToken& token) {
    if (tokenizer_.vocab().type(token.id) == tokenizer::TokenType::kControl) return 0;
    size_t bytes = token.piece.size();
    bool drops_space = at_text_start_ && tokenizer_.vocab().add_space_prefix() &&
                       !token.piece.empty() && token.piece[0] == ' ';
    at_text_start_ = false;
    return drops_space ? bytes - 1 : bytes;
  }

  const ReplyOptions& options_;
  const tokenizer::Tokenizer& tokenizer_;
  size_t text_offset_;
  bool at_text_start_ = options_.echo.prompt.has_value();
};

asio::awaitable<void> reply_whole(HttpExchange& exchange, ServingContext& context,
                                  EngineEvents& events, ReplyWriter& writer,
                                  const ReplyOptions& options) {
  std::optional<engine::CollectedReply> reply =
      co_await collect_whole_reply(exchange, context, events);
  if (!reply) co_return;
  if (options.echo.prompt) reply->content = *options.echo.prompt + reply->content;
  ordered_json body = writer.whole(*reply);
  co_await exchange.respond(http::status::ok, dump(body), "application/json");
}

// Sends what the tool-call parser let out of a piece of content: the
// content (with the piece's tokens when logprobs are asked for), then the
// call deltas. False when the client is gone.
asio::awaitable<bool> send_parsed_delta(HttpExchange& exchange, ReplyWriter& writer,
                                        const ReplyOptions& options, tools::ReplyDelta delta,
                                        const std::vector<engine::GeneratedToken>* tokens) {
  bool with_tokens = options.logprobs && tokens != nullptr && !tokens->empty();
  if (!delta.content.empty() || with_tokens) {
    ordered_json content = {{"content", delta.content}};
    std::string chunk = dump(writer.chunk(content, nullptr, tokens));
    if (!co_await exchange.send_event(chunk)) co_return false;
  }
  if (!delta.tool_calls.empty()) {
    ordered_json calls = ordered_json::array();
    for (const auto& call : delta.tool_calls) calls.push_back(tools::tool_call_delta_json(call));
    ordered_json tool_calls = {{"tool_calls", std::move(calls)}};
    std::string chunk = dump(writer.chunk(tool_calls, nullptr, nullptr));
    if (!co_await exchange.send_event(chunk)) co_return false;
  }
  co_return true;
}

asio::awaitable<void> reply_stream(HttpExchange& exchange, ServingContext& context,
                                   EngineEvents& events, ReplyWriter& writer,
                                   const ReplyOptions& options) {
  std::optional<tools::ToolCallStreamParser> call_parser =
      options.tool_calls.stream_parser(tools::ToolCallIdStyle::kOpenAI);
  if (!co_await exchange.begin_event_stream()) {
    record_cancelled(exchange, context);
    co_return;
  }
  if (options.shape == ReplyShape::kChat) {
    ordered_json role = {{"role", "assistant"}, {"content", ""}};
    if (!co_await exchange.send_event(dump(writer.chunk(role, nullptr, nullptr)))) {
      record_cancelled(exchange, context);
      co_return;
    }
  }
  // An echo without scores goes first; with scores, it rides with them.
  if (options.echo.prompt && !options.scores_prompt) {
    ordered_json echo = {{"content", *options.echo.prompt}};
    if (!co_await exchange.send_event(dump(writer.chunk(echo, nullptr, nullptr)))) {
      record_cancelled(exchange, context);
      co_return;
    }
  }
  for (;;) {
    std::optional<engine::Event> event = co_await next_event_keeping_alive(exchange, events);
    if (!event) {
      record_cancelled(exchange, context);
      co_return;
    }
    if (auto* text = std::get_if<engine::TextEvent>(&*event)) {
      bool ok = true;
      if (text->prompt && options.echo.prompt) text->content = *options.echo.prompt;
      if (!text->reasoning.empty()) {
        ordered_json delta = {{"reasoning_content", text->reasoning}};
        ok = co_await exchange.send_event(dump(writer.chunk(delta, nullptr, nullptr)));
      }
      if (ok && call_parser) {
        tools::ReplyDelta parsed = call_parser->push(text->content);
        ok =
            co_await send_parsed_delta(exchange, writer, options, std::move(parsed), &text->tokens);
      } else if (ok && (!text->content.empty() || !text->tokens.empty())) {
        ordered_json delta = {{"content", text->content}};
        ok = co_await exchange.send_event(dump(writer.chunk(delta, nullptr, &text->tokens)));
      }
      if (!ok) {
        record_cancelled(exchange, context);  // the write failed: the client is gone
        co_return;
      }
    } else if (auto* finish = std::get_if<engine::FinishEvent>(&*event)) {
      record_usage(exchange, context, finish->usage);
      if (finish->reason == engine::FinishReason::kCancelled) record_cancelled(exchange, context);
      size_t calls = 0;
      if (call_parser) {
        tools::ReplyDelta rest = call_parser->finish();
        calls = call_parser->call_count();
        if (!co_await send_parsed_delta(exchange, writer, options, std::move(rest), nullptr)) {
          record_cancelled(exchange, context);
          co_return;
        }
      }
      ordered_json reason = finish_reason_json(finish->reason, calls);
      co_await exchange.send_event(dump(writer.chunk(ordered_json::object(), reason, nullptr)));
      if (options.include_usage) {
        co_await exchange.send_event(dump(writer.usage_chunk(finish->usage)));
      }
      co_await exchange.send_event("[DONE]");
      co_await exchange.end_event_stream();
      co_return;
    } else {
      // Too late for a status code: the stream ends with an error event.
      const Error& error = std::get<engine::ErrorEvent>(*event).error;
      spdlog::error("generation failed mid-stream: {}", error.describe());
      ordered_json body = ordered_json::parse(generation_failed(error).to_json());
      co_await exchange.send_event(dump(body));
      co_await exchange.end_event_stream();
      co_return;
    }
  }
}

ReplyOptions reply_options(const GenerationFields& request, ReplyShape shape,
                           const ServingContext& context) {
  ReplyOptions options;
  options.shape = shape;
  options.stream = request.stream;
  options.include_usage = request.include_usage;
  options.logprobs = request.logprobs;
  options.top_logprobs = request.top_logprobs > 0;
  options.identity = new_identity(shape == ReplyShape::kChat ? "chatcmpl-" : "cmpl-", request.model,
                                  context.identity.system_fingerprint);
  return options;
}

}  // namespace

asio::awaitable<void> submit_and_reply(HttpExchange& exchange, ServingContext& context,
                                       engine::GenerationRequest generation,
                                       const GenerationFields& request, ReplyShape shape,
                                       ToolCallReading tool_calls, TextEcho echo,
                                       AdmissionOrder::Ticket ticket) {
  ReplyOptions options = reply_options(request, shape, context);
  options.tool_calls = tool_calls;
  options.scores_prompt = generation.prompt_logprobs >= 0;
  options.echo = std::move(echo);
  std::unique_ptr<EngineEvents> events = co_await submit_generation(
      exchange, context, std::move(generation), std::move(ticket), options.stream);
  if (!events) co_return;
  ReplyWriter writer(options, *context.format.tokenizer);
  if (options.stream) {
    co_await reply_stream(exchange, context, *events, writer, options);
  } else {
    co_await reply_whole(exchange, context, *events, writer, options);
  }
}

}  // namespace ingot::server
