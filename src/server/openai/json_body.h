#pragma once
// Parses a request body as strict JSON: no NaN or Infinity, valid UTF-8,
// nesting at most kMaxJsonDepth levels (a deeper body is refused before it
// can exhaust the stack of anything that walks it).

#include <nlohmann/json.hpp>
#include <string_view>
#include <variant>

#include "server/api_error.h"

namespace ingot::server {

constexpr int kMaxJsonDepth = 64;

std::variant<nlohmann::ordered_json, ApiError> parse_json_body(std::string_view body);

}  // namespace ingot::server
