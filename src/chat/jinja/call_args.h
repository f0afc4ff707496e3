#pragma once
// Binds the arguments of a call to named parameters the way a Python
// function signature does, raising TypeError-like errors for unexpected,
// duplicate or missing arguments.

#include <string>
#include <string_view>
#include <vector>

#include "chat/jinja/value.h"

namespace ingot::chat::jinja {

class ArgReader {
 public:
  // `names` lists the parameters in order; the first `required` must be given.
  ArgReader(const CallArgs& args, std::string_view function, std::vector<std::string_view> names,
            size_t required = 0);

  bool has(size_t index) const { return bound_[index] != nullptr; }
  // The argument, or Undefined when it was not given.
  Value get(size_t index) const { return has(index) ? *bound_[index] : Value(); }
  Value get_or(size_t index, Value fallback) const {
    return has(index) ? *bound_[index] : fallback;
  }
  // Python's int(x) conversion for an argument that must be an integer.
  int64_t get_int(size_t index, int64_t fallback) const;
  // An argument that must be a string when given.
  std::optional<std::string> get_string(size_t index) const;
  bool get_bool(size_t index, bool fallback) const {
    return has(index) ? bound_[index]->truthy() : fallback;
  }

 private:
  std::string function_;
  std::vector<const Value*> bound_;
};

}  // namespace ingot::chat::jinja
