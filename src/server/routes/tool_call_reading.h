#pragma once
// How a chat reply is read for tool calls, whole or streamed, in the
// family's syntax the template writes, and what a stream's parser lets out
// as a dialect writer's events.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "chat/tool_calls/argument_typing.h"
#include "chat/tool_calls/tool_call_family.h"
#include "chat/tool_calls/tool_call_id.h"
#include "chat/tool_calls/tool_call_stream.h"
#include "chat/tool_calls/tool_call_types.h"
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

}  // namespace ingot::server
