#pragma once
// JSON text as the tool-call parsers write it: compact values and escaped
// string content, never throwing on bytes that are not UTF-8.

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "util/json_escape.h"

namespace ingot::chat::tool_calls {

// A value's compact JSON text; invalid UTF-8 is replaced.
std::string compact_json(const nlohmann::ordered_json& value);

// JSON string content for `text` (no quotes), util/json_escape.h's: bytes
// >= 0x80 pass through, so a character split across pieces completes in
// later ones.
inline std::string json_escape(std::string_view text) {
  return json_escaped(text);
}

}  // namespace ingot::chat::tool_calls
