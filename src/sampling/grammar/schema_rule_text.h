#pragma once
// The errors and the small pieces of GBNF text that both halves of the
// schema translator (schema_translator.cpp, schema_containers.cpp) write.

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "sampling/grammar/gbnf_text.h"
#include "util/status.h"

namespace ingot::sampling::grammar::schema_rules {

using Json = nlohmann::ordered_json;

[[noreturn]] inline void fail(Error error) {
  throw ErrorException(std::move(error));
}

[[noreturn]] inline void fail_invalid(const std::string& what, const std::string& path) {
  fail(invalid_argument(what + " (at " + path + ")"));
}

inline std::string quoted(const std::string& content) {
  std::string quote = gbnf_literal("\"");
  return content.empty() ? quote + " " + quote : quote + " " + content + " " + quote;
}

inline std::string json_text(const Json& value, const std::string& path) {
  try {
    return value.dump();
  } catch (const nlohmann::json::exception&) {
    fail_invalid("a value that is not valid UTF-8", path);
  }
}

inline int64_t clamp_to_int64(double value) {
  return static_cast<int64_t>(std::clamp(value, -1e17, 1e17));
}

inline std::string join_path(const std::string& path, const std::string& segment) {
  return path + "/" + segment;
}

// A minItems/maxItems/minLength/maxLength value; huge ones are clamped
// (kMaxSchemaCount then refuses or tightens them).
inline std::optional<uint64_t> count_keyword(const Json& schema, const char* keyword,
                                             const std::string& path) {
  if (!schema.contains(keyword)) return std::nullopt;
  const Json& value = schema[keyword];
  bool integral = value.is_number_unsigned() ||
                  (value.is_number_integer() && value.get<int64_t>() >= 0) ||
                  (value.is_number_float() && value.get<double>() >= 0 &&
                   std::floor(value.get<double>()) == value.get<double>());
  if (!integral) fail_invalid(fmt::format("'{}' must be a non-negative integer", keyword), path);
  double number = value.get<double>();
  return number > 1e15 ? uint64_t{1'000'000'000'000'000} : value.get<uint64_t>();
}

}  // namespace ingot::sampling::grammar::schema_rules
