#pragma once
// JSON text as the tool-call parsers write it: compact values, never
// throwing on bytes that are not UTF-8 (string content is escaped by
// util/json_escape.h).

#include <nlohmann/json.hpp>
#include <string>

namespace ingot::chat::tool_calls {

// A value's compact JSON text; invalid UTF-8 is replaced.
std::string compact_json(const nlohmann::ordered_json& value);

}  // namespace ingot::chat::tool_calls
