#pragma once
// Reading the body of a dialect's request (Anthropic's Messages, OpenAI's
// Responses) before it becomes a chat request: the first problem found,
// with the field it is about, and fields that count as absent when missing
// or null.

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace ingot::server {

struct BodyProblem {
  std::string message;
  std::string param;
};
using FoundProblem = std::optional<BodyProblem>;

// A field of `object`, or null when it is absent or null (or `object` is
// not an object).
inline const nlohmann::ordered_json* given(const nlohmann::ordered_json& object, const char* name) {
  if (!object.is_object()) return nullptr;
  auto it = object.find(name);
  return it == object.end() || it->is_null() ? nullptr : &*it;
}

// A string field's value; "" when it is absent or not a string.
inline std::string string_field(const nlohmann::ordered_json& object, const char* name) {
  const nlohmann::ordered_json* value = given(object, name);
  return value != nullptr && value->is_string() ? value->get<std::string>() : std::string();
}

}  // namespace ingot::server
