#include "chat/tool_calls/openai_json.h"

namespace ingot::chat::tool_calls {

nlohmann::ordered_json tool_call_json(const ToolCall& call) {
  return {{"id", call.id},
          {"type", "function"},
          {"function", {{"name", call.name}, {"arguments", call.arguments}}}};
}

nlohmann::ordered_json tool_call_delta_json(const ToolCallDelta& delta) {
  nlohmann::ordered_json json = {{"index", delta.index}};
  nlohmann::ordered_json function = nlohmann::ordered_json::object();
  if (delta.id) {
    json["id"] = *delta.id;
    json["type"] = "function";
  }
  if (delta.name) function["name"] = *delta.name;
  function["arguments"] = delta.arguments;
  json["function"] = std::move(function);
  return json;
}

}  // namespace ingot::chat::tool_calls
