#pragma once
// Jinja2's built-in filters (with transformers' `tojson`), by name.

#include <string_view>

#include "chat/jinja/value.h"

namespace ingot::chat::jinja {

using FilterFn = Value (*)(Interpreter& interpreter, const Value& input, CallArgs& args);

// The filter called `name`, or null when ingot does not implement it.
FilterFn find_filter(std::string_view name);

// Whether Jinja2 knows a filter by this name (parse-time check; a few
// exotic ones parse but raise when called).
bool is_known_filter(std::string_view name);

// A getter for `attribute` ("a.b.0") as map/selectattr/sort use it: each
// dotted part is looked up with getitem, digits as integer indexes.
Value lookup_attribute_path(const Value& item, std::string_view attribute);

}  // namespace ingot::chat::jinja
