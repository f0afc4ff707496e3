#include "server/anthropic/messages_response.h"

#include "server/random_id.h"

namespace ingot::server::anthropic {
namespace {

namespace tools = chat::tool_calls;

// A call's arguments as the object Anthropic's `input` is; arguments cut
// short (max_tokens) are not one, and give {}.
ordered_json input_of(const std::string& arguments) {
  ordered_json input = ordered_json::parse(arguments, nullptr, /*allow_exceptions=*/false);
  return input.is_object() ? input : ordered_json::object();
}

ordered_json thinking_block(const std::string& thinking) {
  // Signatures vouch for Anthropic's own thinking; there is nothing to sign here.
  return {{"type", "thinking"}, {"thinking", thinking}, {"signature", ""}};
}

ordered_json tool_use_block(const std::string& id, const std::string& name, ordered_json input) {
  return {{"type", "tool_use"}, {"id", id}, {"name", name}, {"input", std::move(input)}};
}

}  // namespace

MessageIdentity new_message_identity(std::string model) {
  return {random_id("msg_", 24), std::move(model)};
}

std::string_view stop_reason(const engine::FinishEvent& finish, size_t calls) {
  if (finish.reason == engine::FinishReason::kLength) return "max_tokens";
  if (finish.stop_sequence) return "stop_sequence";
  return calls > 0 ? "tool_use" : "end_turn";
}

// Anthropic counts the prompt tokens read from the cache apart from the
// rest: input_tokens + cache_read_input_tokens is the whole prompt.
ordered_json usage_json(const engine::Usage& usage) {
  return {{"input_tokens", usage.prompt_tokens - usage.cached_tokens},
          {"cache_creation_input_tokens", 0},
          {"cache_read_input_tokens", usage.cached_tokens},
          {"output_tokens", usage.completion_tokens}};
}

ordered_json whole_message(const MessageIdentity& identity, const std::string& reasoning,
                           const tools::ParsedReply& reply, const engine::FinishEvent& finish) {
  ordered_json content = ordered_json::array();
  if (!reasoning.empty()) content.push_back(thinking_block(reasoning));
  if (reply.content && !reply.content->empty()) {
    content.push_back({{"type", "text"}, {"text", *reply.content}});
  }
  for (const tools::ToolCall& call : reply.tool_calls) {
    content.push_back(tool_use_block(call.id, call.name, input_of(call.arguments)));
  }
  ordered_json message;
  message["id"] = identity.id;
  message["type"] = "message";
  message["role"] = "assistant";
  message["content"] = std::move(content);
  message["model"] = identity.model;
  message["stop_reason"] = stop_reason(finish, reply.tool_calls.size());
  message["stop_sequence"] =
      finish.stop_sequence ? ordered_json(*finish.stop_sequence) : ordered_json(nullptr);
  message["usage"] = usage_json(finish.usage);
  return message;
}

std::vector<StreamEvent> MessageEvents::start(const engine::Usage& prompt_usage) {
  ordered_json message;
  message["id"] = identity_.id;
  message["type"] = "message";
  message["role"] = "assistant";
  message["content"] = ordered_json::array();
  message["model"] = identity_.model;
  message["stop_reason"] = nullptr;
  message["stop_sequence"] = nullptr;
  message["usage"] = usage_json(prompt_usage);
  return {{"message_start", {{"type", "message_start"}, {"message", std::move(message)}}}, ping()};
}

StreamEvent MessageEvents::ping() const {
  return {"ping", {{"type", "ping"}}};
}

std::vector<StreamEvent> MessageEvents::thinking(std::string_view text) {
  std::vector<StreamEvent> out;
  if (text.empty()) return out;
  if (open_ != Block::kThinking) open(Block::kThinking, thinking_block(""), out);
  out.push_back(delta({{"type", "thinking_delta"}, {"thinking", text}}));
  return out;
}

std::vector<StreamEvent> MessageEvents::text(std::string_view text) {
  std::vector<StreamEvent> out;
  if (text.empty()) return out;
  if (open_ != Block::kText) open(Block::kText, {{"type", "text"}, {"text", ""}}, out);
  out.push_back(delta({{"type", "text_delta"}, {"text", text}}));
  return out;
}

std::vector<StreamEvent> MessageEvents::tool_call(const tools::ToolCallDelta& call) {
  std::vector<StreamEvent> out;
  if (call.id && call.name) {
    open(Block::kToolUse, tool_use_block(*call.id, *call.name, ordered_json::object()), out);
    open_call_ = call.index;
  }
  if (!call.arguments.empty() && open_ == Block::kToolUse && open_call_ == call.index) {
    out.push_back(delta({{"type", "input_json_delta"}, {"partial_json", call.arguments}}));
  }
  return out;
}

std::vector<StreamEvent> MessageEvents::finish(const engine::FinishEvent& finish, size_t calls) {
  std::vector<StreamEvent> out;
  close(out);
  ordered_json delta = {{"stop_reason", stop_reason(finish, calls)},
                        {"stop_sequence", finish.stop_sequence ? ordered_json(*finish.stop_sequence)
                                                               : ordered_json(nullptr)}};
  out.push_back({"message_delta",
                 {{"type", "message_delta"},
                  {"delta", std::move(delta)},
                  {"usage", usage_json(finish.usage)}}});
  out.push_back({"message_stop", {{"type", "message_stop"}}});
  return out;
}

void MessageEvents::open(Block kind, ordered_json content_block, std::vector<StreamEvent>& out) {
  close(out);
  open_ = kind;
  ++index_;
  out.push_back({"content_block_start",
                 {{"type", "content_block_start"},
                  {"index", index_},
                  {"content_block", std::move(content_block)}}});
}

void MessageEvents::close(std::vector<StreamEvent>& out) {
  if (open_ == Block::kNone) return;
  out.push_back({"content_block_stop", {{"type", "content_block_stop"}, {"index", index_}}});
  open_ = Block::kNone;
}

StreamEvent MessageEvents::delta(ordered_json delta) const {
  return {"content_block_delta",
          {{"type", "content_block_delta"}, {"index", index_}, {"delta", std::move(delta)}}};
}

}  // namespace ingot::server::anthropic
