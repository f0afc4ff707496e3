#pragma once
// An error as the HTTP API reports it: a status and OpenAI's envelope
// {"error": {"message", "type", "param", "code"}}.

#include <optional>
#include <string>

#include "util/status.h"

namespace ingot::server {

struct ApiError {
  int status = 400;
  std::string type = "invalid_request_error";
  std::string message;
  std::optional<std::string> param;
  std::optional<std::string> code;

  std::string to_json() const;
};

ApiError invalid_request(std::string message, std::optional<std::string> param = std::nullopt,
                         std::optional<std::string> code = std::nullopt);

// The status, type and code an ingot::Error of each kind is answered with.
ApiError api_error_from(const Error& error);

}  // namespace ingot::server
