#pragma once
// Tool calls in the shapes of OpenAI's chat completion replies and chunks.

#include <nlohmann/json.hpp>

#include "chat/tool_calls/tool_call_types.h"

namespace ingot::chat::tool_calls {

// {"id", "type": "function", "function": {"name", "arguments"}}, for
// message.tool_calls of a whole reply.
nlohmann::ordered_json tool_call_json(const ToolCall& call);

// An element of a chunk's delta.tool_calls: {"index", "id", "type",
// "function": {"name", "arguments": ""}} when the call opens, then
// {"index", "function": {"arguments": "..."}}.
nlohmann::ordered_json tool_call_delta_json(const ToolCallDelta& delta);

}  // namespace ingot::chat::tool_calls
