#pragma once
// Errors as values. Every failure in ingot is an Error with a kind (which
// the server maps to one HTTP status), a one-line message, and optional
// context added as it travels up ("while reading tensor 'x'").

#include <exception>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace ingot {

enum class ErrorKind {
  kInvalidArgument,        // bad input from a caller (a request field, a CLI flag)
  kInvalidFormat,          // a malformed file or payload (GGUF, JSON, template, grammar)
  kUnsupported,            // well-formed but not something ingot can run
  kNotFound,               // a file, model, route or key that does not exist
  kIo,                     // the operating system said no
  kOutOfRange,             // an index or size past a limit
  kContextLengthExceeded,  // prompt plus completion larger than the context
  kResourceExhausted,      // a queue or memory bound is full
  kUnavailable,            // not ready yet (loading) or shutting down
  kCancelled,              // the caller gave up
  kPermissionDenied,       // authentication failed
  kTemplateRaised,         // a chat template called raise_exception(msg)
  kInternal,               // a bug in ingot
};

std::string_view error_kind_name(ErrorKind kind);

class Error {
 public:
  Error(ErrorKind kind, std::string message) : kind_(kind), message_(std::move(message)) {}

  ErrorKind kind() const { return kind_; }
  const std::string& message() const { return message_; }
  const std::vector<std::string>& context() const { return context_; }

  // Adds where the error happened, innermost first.
  Error& add_context(std::string where) {
    context_.push_back(std::move(where));
    return *this;
  }

  // "message (while a; while b)": one line for logs and CLI output.
  std::string describe() const;

 private:
  ErrorKind kind_;
  std::string message_;
  std::vector<std::string> context_;
};

// Thrown only inside a component that finds recursion simpler with
// exceptions (a parser, an interpreter); converted back to an Error at the
// component's boundary. Never crosses a thread.
class ErrorException : public std::exception {
 public:
  explicit ErrorException(Error error) : error_(std::move(error)), what_(error_.describe()) {}
  const Error& error() const { return error_; }
  const char* what() const noexcept override { return what_.c_str(); }

 private:
  Error error_;
  std::string what_;
};

class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(Error error) : error_(std::move(error)) {}  // NOLINT: implicit on purpose

  bool ok() const { return !error_.has_value(); }
  const Error& error() const { return *error_; }
  Error& error() { return *error_; }

 private:
  std::optional<Error> error_;
};

template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : state_(std::in_place_index<0>, std::move(value)) {}      // NOLINT
  Result(Error error) : state_(std::in_place_index<1>, std::move(error)) {}  // NOLINT

  bool ok() const { return state_.index() == 0; }
  T& value() & { return std::get<0>(state_); }
  const T& value() const& { return std::get<0>(state_); }
  T&& value() && { return std::get<0>(std::move(state_)); }
  const Error& error() const { return std::get<1>(state_); }
  Error& error() { return std::get<1>(state_); }
  Status status() const { return ok() ? Status() : Status(error()); }

  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T&& operator*() && { return std::move(*this).value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

 private:
  std::variant<T, Error> state_;
};

inline Error invalid_argument(std::string message) {
  return Error(ErrorKind::kInvalidArgument, std::move(message));
}
inline Error invalid_format(std::string message) {
  return Error(ErrorKind::kInvalidFormat, std::move(message));
}
inline Error unsupported(std::string message) {
  return Error(ErrorKind::kUnsupported, std::move(message));
}
inline Error not_found(std::string message) {
  return Error(ErrorKind::kNotFound, std::move(message));
}
inline Error internal_error(std::string message) {
  return Error(ErrorKind::kInternal, std::move(message));
}

}  // namespace ingot

#define INGOT_CONCAT_INNER(a, b) a##b
#define INGOT_CONCAT(a, b) INGOT_CONCAT_INNER(a, b)

// Returns the Status of `expr` from the enclosing function when it failed.
#define INGOT_RETURN_IF_ERROR(expr)                        \
  do {                                                     \
    auto ingot_status_ = (expr);                           \
    if (!ingot_status_.ok()) return ingot_status_.error(); \
  } while (0)

// `lhs = value of expr`, or returns its Error from the enclosing function.
#define INGOT_ASSIGN_OR_RETURN(lhs, expr) \
  INGOT_ASSIGN_OR_RETURN_IMPL(INGOT_CONCAT(ingot_result_, __LINE__), lhs, expr)
#define INGOT_ASSIGN_OR_RETURN_IMPL(tmp, lhs, expr) \
  auto tmp = (expr);                                \
  if (!tmp.ok()) return std::move(tmp.error());     \
  lhs = std::move(tmp).value()
