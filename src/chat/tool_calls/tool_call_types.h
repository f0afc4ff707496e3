#pragma once
// What the tool-call parsers produce: a whole reply's content and calls, and
// the pieces a stream sends as OpenAI does (a call's id and name first, then
// its arguments in pieces).

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace ingot::chat::tool_calls {

struct ToolCall {
  std::string id;
  std::string name;
  std::string arguments;  // JSON text, whitespace outside strings removed

  bool operator==(const ToolCall&) const = default;
};

struct ParsedReply {
  std::optional<std::string> content;  // absent when the reply is only calls
  std::vector<ToolCall> tool_calls;

  bool operator==(const ParsedReply&) const = default;
};

struct ToolCallDelta {
  size_t index = 0;
  // Set on a call's first delta (whose arguments are empty), absent after.
  std::optional<std::string> id;
  std::optional<std::string> name;
  std::string arguments;

  bool operator==(const ToolCallDelta&) const = default;
};

struct ReplyDelta {
  std::string content;
  std::vector<ToolCallDelta> tool_calls;

  bool empty() const { return content.empty() && tool_calls.empty(); }
};

// Adds a stream's delta to the reply it builds up.
void accumulate(ParsedReply& reply, const ReplyDelta& delta);

}  // namespace ingot::chat::tool_calls
