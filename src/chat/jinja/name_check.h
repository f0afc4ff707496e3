#pragma once
// Jinja2 resolves filter and test names when it compiles a template: an
// unknown name is a template error even if never evaluated, except inside
// an `if` statement or conditional expression, where the error waits until
// evaluation. This pass reproduces that so that ingot fails on the same
// templates.

#include "chat/jinja/ast.h"

namespace ingot::chat::jinja {

// Throws ErrorException (kInvalidFormat, with position) on an unknown name
// outside a conditional.
void check_filter_and_test_names(const Body& body);

}  // namespace ingot::chat::jinja
