#pragma once
// An error as the HTTP API reports it: a status and OpenAI's envelope
// {"error": {"message", "type", "param", "code"}}, or on Anthropic's routes
// its envelope {"type": "error", "error": {"type", "message"}}.

#include <optional>
#include <string>
#include <string_view>

#include "util/status.h"

namespace ingot::server {

enum class ErrorDialect { kOpenAI, kAnthropic };

// Anthropic's routes (/v1/messages...) answer in its dialect, the rest in OpenAI's.
ErrorDialect dialect_for_path(std::string_view path);

struct ApiError {
  int status = 400;
  std::string type = "invalid_request_error";
  std::string message;
  std::optional<std::string> param;
  std::optional<std::string> code;

  std::string to_json(ErrorDialect dialect = ErrorDialect::kOpenAI) const;
  // Anthropic says a full queue with 529 overloaded_error.
  int status_in(ErrorDialect dialect) const;
};

ApiError invalid_request(std::string message, std::optional<std::string> param = std::nullopt,
                         std::optional<std::string> code = std::nullopt);

// The status, type and code an ingot::Error of each kind is answered with.
ApiError api_error_from(const Error& error);

}  // namespace ingot::server
