#include "chat/jinja/errors.h"

#include <utility>

namespace ingot::chat::jinja {

std::string position_context(SourcePos pos) {
  return "at template line " + std::to_string(pos.line) + ", column " + std::to_string(pos.column);
}

void throw_syntax_error(SourcePos pos, std::string message) {
  Error error(ErrorKind::kInvalidFormat, "template syntax error: " + std::move(message));
  error.add_context(position_context(pos));
  throw ErrorException(std::move(error));
}

void throw_render_error(std::string message) {
  throw ErrorException(Error(ErrorKind::kInvalidArgument, "template error: " + std::move(message)));
}

void throw_limit_error(std::string message) {
  throw ErrorException(
      Error(ErrorKind::kResourceExhausted, "template limit exceeded: " + std::move(message)));
}

void throw_raised(std::string message) {
  throw ErrorException(Error(ErrorKind::kTemplateRaised, std::move(message)));
}

ErrorException with_position(const ErrorException& error, SourcePos pos) {
  Error copy = error.error();
  if (copy.context().empty()) copy.add_context(position_context(pos));
  return ErrorException(std::move(copy));
}

}  // namespace ingot::chat::jinja
