#pragma once
// Builds the syntax tree from tokens, following Jinja2's grammar and
// operator precedence. Like Jinja2's compiler it rejects unknown filters
// and tests when the template is parsed, except inside `if` statements and
// conditional expressions, where they fail only if evaluated.

#include <string_view>

#include "chat/jinja/ast.h"

namespace ingot::chat::jinja {

struct ParseLimits {
  int max_nesting = 64;  // statements and expressions nested in each other
};

// Throws ErrorException (kInvalidFormat, with a position) on bad syntax.
Body parse_template(std::string_view source, const ParseLimits& limits = {});

}  // namespace ingot::chat::jinja
