#pragma once
// Jinja2's built-in tests (`x is defined`, `x is divisibleby 3`), by name.

#include <string_view>

#include "chat/jinja/value.h"

namespace ingot::chat::jinja {

using TestFn = bool (*)(Interpreter& interpreter, const Value& input, CallArgs& args);

// The test called `name`, or null when there is none.
TestFn find_test(std::string_view name);
bool is_known_test(std::string_view name);

}  // namespace ingot::chat::jinja
