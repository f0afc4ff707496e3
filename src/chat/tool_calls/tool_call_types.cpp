#include "chat/tool_calls/tool_call_types.h"

namespace ingot::chat::tool_calls {

void accumulate(ParsedReply& reply, const ReplyDelta& delta) {
  if (!delta.content.empty()) {
    if (!reply.content) reply.content.emplace();
    *reply.content += delta.content;
  }
  for (const ToolCallDelta& call : delta.tool_calls) {
    if (call.id) {
      reply.tool_calls.push_back({*call.id, call.name.value_or(""), call.arguments});
    } else if (call.index < reply.tool_calls.size()) {
      reply.tool_calls[call.index].arguments += call.arguments;
    }
  }
}

}  // namespace ingot::chat::tool_calls
