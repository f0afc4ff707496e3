#include "chat/jinja/call_args.h"

#include "chat/jinja/errors.h"

namespace ingot::chat::jinja {

ArgReader::ArgReader(const CallArgs& args, std::string_view function,
                     std::vector<std::string_view> names, size_t required)
    : function_(function), bound_(names.size(), nullptr) {
  if (args.positional.size() > names.size()) {
    throw_render_error(function_ + "() takes at most " + std::to_string(names.size()) +
                       " argument(s) (" + std::to_string(args.positional.size()) + " given)");
  }
  for (size_t i = 0; i < args.positional.size(); ++i) bound_[i] = &args.positional[i];
  for (const auto& [key, value] : args.keyword) {
    size_t i = 0;
    while (i < names.size() && names[i] != key) ++i;
    if (i == names.size()) {
      throw_render_error(function_ + "() got an unexpected keyword argument '" + key + "'");
    }
    if (bound_[i])
      throw_render_error(function_ + "() got multiple values for argument '" + key + "'");
    bound_[i] = &value;
  }
  for (size_t i = 0; i < required; ++i) {
    if (!bound_[i]) {
      throw_render_error(function_ + "() missing required argument '" + std::string(names[i]) +
                         "'");
    }
  }
}

int64_t ArgReader::get_int(size_t index, int64_t fallback) const {
  if (!has(index)) return fallback;
  const Value& value = *bound_[index];
  if (value.is_integral()) return value.integral();
  throw_render_error(function_ + "(): expected an integer, got '" + value.type_name() + "'");
}

std::optional<std::string> ArgReader::get_string(size_t index) const {
  if (!has(index) || bound_[index]->is_none()) return std::nullopt;
  const Value& value = *bound_[index];
  if (!value.is_string()) {
    throw_render_error(function_ + "(): expected a string, got '" + value.type_name() + "'");
  }
  return value.as_string();
}

}  // namespace ingot::chat::jinja
