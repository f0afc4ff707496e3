#pragma once
// Python literals as JSON: what a template's str() writes for a dict or a
// list ({'a': [1, 'b'], 'ok': True}), and the keyword values of a pythonic
// call (get_weather(city='Paris', days=2)).

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

namespace ingot::chat::tool_calls {

// The value of one whole literal (surrounding whitespace allowed): strings
// in either quote with Python's escapes, numbers, True/False/None, lists,
// tuples (as arrays) and dicts (keys that are not strings become their JSON
// text). Nothing when `text` is not exactly one such literal.
std::optional<nlohmann::ordered_json> parse_python_literal(std::string_view text);

struct PythonCall {
  std::string name;                  // letters, digits, '_', '-', '.'
  nlohmann::ordered_json arguments;  // the keyword arguments as an object
};

// One whole call with keyword arguments, `name(key=value, ...)`, each value
// a literal as above. Nothing when `text` is not exactly that.
std::optional<PythonCall> parse_python_call(std::string_view text);

}  // namespace ingot::chat::tool_calls
