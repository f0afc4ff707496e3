#pragma once
// Python's str() and repr() of template values: what `{{ x }}` prints and
// what a list or dict shows for its elements.

#include <string>

#include "chat/jinja/value.h"

namespace ingot::chat::jinja {

// Python's repr(float): the shortest string that reads back to the same
// double, with Python's choice between fixed and exponent notation.
std::string python_float_repr(double value);

// str(x): strings print as themselves, None as None, True as True.
std::string to_str(const Value& value);
void append_str(std::string& out, const Value& value);

// repr(x): strings quoted the way Python quotes them.
std::string to_repr(const Value& value);
void append_repr(std::string& out, const Value& value);

// markupsafe's escape(): & < > " ' as entities.
std::string html_escape(const std::string& text);

}  // namespace ingot::chat::jinja
