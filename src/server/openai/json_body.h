#pragma once
// Parses a request body as strict JSON: no NaN or Infinity, valid UTF-8,
// nesting at most kMaxJsonDepth levels (a deeper body is refused before it
// can exhaust the stack of anything that walks it), at most
// kMaxJsonObjectKeys keys in an object and kMaxJsonArrayElements elements
// in an array. The parse takes time linear in the body's size: one pass,
// and an object's duplicate keys found through an index once it is large
// (nlohmann's ordered_json looks keys up one by one, and its callback
// parser rescans a container at each of its children's ends).

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string_view>
#include <variant>

#include "server/api_error.h"

namespace ingot::server {

constexpr int kMaxJsonDepth = 64;
// Every route's request has a few dozen fields; the largest objects a
// client sends are JSON schemas' `properties` and `logit_bias`.
constexpr size_t kMaxJsonObjectKeys = 10'000;
// A prompt or embedding input given as token ids is the longest array a
// request holds; this is above any context length ingot serves.
constexpr size_t kMaxJsonArrayElements = 1'048'576;

std::variant<nlohmann::ordered_json, ApiError> parse_json_body(std::string_view body);

}  // namespace ingot::server
