#pragma once
// How the template engine reports failures. The lexer, parser and
// interpreter throw ErrorException internally (they recurse deeply); the
// public entry points turn it back into an Error. A position is attached
// once, by the innermost node that knows where it is.

#include <string>
#include <string_view>

#include "util/status.h"

namespace ingot::chat::jinja {

struct SourcePos {
  int line = 1;
  int column = 1;
};

// A template syntax error (the template itself is malformed).
[[noreturn]] void throw_syntax_error(SourcePos pos, std::string message);

// A render-time error; the interpreter adds the position of the node that
// was evaluating.
[[noreturn]] void throw_render_error(std::string message);

// A bound (depth, iterations, output size) was exceeded.
[[noreturn]] void throw_limit_error(std::string message);

// raise_exception(msg) from the template.
[[noreturn]] void throw_raised(std::string message);

// Concatenates message parts by appending (GCC 12 warns falsely on some
// `"literal" + std::string` chains).
template <typename... Parts>
std::string str_cat(const Parts&... parts) {
  std::string out;
  (out.append(std::string_view(parts)), ...);
  return out;
}

// "at template line L, column C"
std::string position_context(SourcePos pos);

// Adds `pos` to an error that does not carry a position yet.
ErrorException with_position(const ErrorException& error, SourcePos pos);

}  // namespace ingot::chat::jinja
