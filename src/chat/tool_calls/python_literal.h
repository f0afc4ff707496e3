#pragma once
// Python literals as JSON: what a template's str() writes for a dict or a
// list ({'a': [1, 'b'], 'ok': True}), and the keyword values of a pythonic
// call (get_weather(city='Paris', days=2)).

#include <nlohmann/json.hpp>
#include <optional>
#include <string_view>

namespace ingot::chat::tool_calls {

// The value of one whole literal (surrounding whitespace allowed): strings
// in either quote with Python's escapes, numbers, True/False/None, lists,
// tuples (as arrays) and dicts (keys that are not strings become their JSON
// text). Nothing when `text` is not exactly one such literal.
std::optional<nlohmann::ordered_json> parse_python_literal(std::string_view text);

// A reader over text, for callers that parse literals inside a larger
// syntax: reads one literal from `text` at `at`, advancing `at` past it.
std::optional<nlohmann::ordered_json> read_python_literal(std::string_view text, size_t& at);

}  // namespace ingot::chat::tool_calls
