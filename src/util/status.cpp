#include "util/status.h"

namespace ingot {

std::string_view error_kind_name(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::kInvalidArgument:
      return "invalid_argument";
    case ErrorKind::kInvalidFormat:
      return "invalid_format";
    case ErrorKind::kUnsupported:
      return "unsupported";
    case ErrorKind::kNotFound:
      return "not_found";
    case ErrorKind::kIo:
      return "io";
    case ErrorKind::kOutOfRange:
      return "out_of_range";
    case ErrorKind::kContextLengthExceeded:
      return "context_length_exceeded";
    case ErrorKind::kResourceExhausted:
      return "resource_exhausted";
    case ErrorKind::kUnavailable:
      return "unavailable";
    case ErrorKind::kCancelled:
      return "cancelled";
    case ErrorKind::kPermissionDenied:
      return "permission_denied";
    case ErrorKind::kTemplateRaised:
      return "template_raised";
    case ErrorKind::kInternal:
      return "internal";
  }
  return "unknown";
}

std::string Error::describe() const {
  std::string line = message_;
  if (context_.empty()) return line;
  line += " (";
  for (size_t i = 0; i < context_.size(); ++i) {
    if (i > 0) line += "; ";
    line += context_[i];
  }
  line += ")";
  return line;
}

}  // namespace ingot
