#include "chat/tool_calls/json_text.h"

namespace ingot::chat::tool_calls {

std::string compact_json(const nlohmann::ordered_json& value) {
  return value.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

}  // namespace ingot::chat::tool_calls
