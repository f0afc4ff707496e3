#pragma once
// The Python methods templates call on values: str.strip/split/..., dict
// .items/.get/..., list .index/.count. Methods that mutate a list or dict
// (append, pop, update, ...) are refused the way Jinja2's immutable
// sandbox, which transformers renders with, refuses them: the attribute is
// an Undefined that raises when called.

#include <optional>
#include <string>

#include "chat/jinja/value.h"

namespace ingot::chat::jinja {

// The bound method `object.name`, or nullopt when the type has no such
// method.
std::optional<Value> find_method(const Value& object, const std::string& name);

// Python's str.format(*args, **kwargs).
std::string python_str_format(const std::string& format, const CallArgs& args);

}  // namespace ingot::chat::jinja
