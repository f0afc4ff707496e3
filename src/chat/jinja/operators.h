#pragma once
// Python's arithmetic, comparison and membership on template values, with
// the TypeErrors Python raises for mismatched operands.

#include "chat/jinja/ast.h"
#include "chat/jinja/value.h"

namespace ingot::chat::jinja {

// `max_size` bounds what string and list repetition may build.
Value binary_op(BinaryOp op, const Value& a, const Value& b, size_t max_size);
bool compare(CompareOp op, const Value& a, const Value& b);
// Python's a < b; raises where Python raises TypeError.
bool less_than(const Value& a, const Value& b);
// Python's `item in container`.
bool contains(const Value& container, const Value& item);
// Python's `%` on a string: printf-style formatting.
std::string percent_format(const std::string& format, const Value& args);

}  // namespace ingot::chat::jinja
