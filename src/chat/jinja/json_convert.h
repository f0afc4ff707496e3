#pragma once
// Between JSON and template values: request messages and tools come in as
// JSON (object key order kept, as Python's json.loads keeps it), and the
// `tojson` filter writes JSON the way Python's json.dumps does.

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "chat/jinja/value.h"

namespace ingot::chat::jinja {

// Throws ErrorException (kResourceExhausted) past 256 levels of nesting.
Value value_from_json(const nlohmann::ordered_json& json);
Value value_from_json(const nlohmann::json& json);

struct JsonDumpOptions {
  std::optional<std::string> indent;  // absent: one line
  std::string item_separator = ", ";
  std::string key_separator = ": ";
  bool sort_keys = false;
  bool ensure_ascii = false;
};

// json.dumps(value, ...). Raises a render error for values JSON cannot hold
// (Undefined, macros, namespaces), as json.dumps raises TypeError.
std::string dump_json(const Value& value, const JsonDumpOptions& options);

}  // namespace ingot::chat::jinja
