#include "server/api_error.h"

#include <nlohmann/json.hpp>

namespace ingot::server {

std::string ApiError::to_json() const {
  nlohmann::json body = {{"error",
                          {{"message", message},
                           {"type", type},
                           {"param", param ? nlohmann::json(*param) : nlohmann::json(nullptr)},
                           {"code", code ? nlohmann::json(*code) : nlohmann::json(nullptr)}}}};
  return body.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

ApiError invalid_request(std::string message, std::optional<std::string> param,
                         std::optional<std::string> code) {
  return ApiError{400, "invalid_request_error", std::move(message), std::move(param),
                  std::move(code)};
}

ApiError api_error_from(const Error& error) {
  ApiError api{400, "invalid_request_error", error.describe(), std::nullopt, std::nullopt};
  switch (error.kind()) {
    case ErrorKind::kInvalidArgument:
    case ErrorKind::kInvalidFormat:
    case ErrorKind::kOutOfRange:
      break;
    case ErrorKind::kTemplateRaised:
      api.message = error.message();
      api.code = "template_error";
      break;
    case ErrorKind::kContextLengthExceeded:
      api.code = "context_length_exceeded";
      api.param = "messages";
      break;
    case ErrorKind::kUnsupported:
      api.code = "unsupported";
      break;
    case ErrorKind::kNotFound:
      api.status = 404;
      api.code = "not_found";
      break;
    case ErrorKind::kPermissionDenied:
      api.status = 401;
      api.type = "authentication_error";
      api.code = "invalid_api_key";
      break;
    case ErrorKind::kResourceExhausted:
      api.status = 503;
      api.type = "server_error";
      api.code = "server_busy";
      break;
    case ErrorKind::kUnavailable:
      api.status = 503;
      api.type = "server_error";
      api.code = "unavailable";
      break;
    case ErrorKind::kCancelled:
      api.status = 499;
      api.type = "server_error";
      api.code = "cancelled";
      break;
    case ErrorKind::kIo:
    case ErrorKind::kInternal:
      api.status = 500;
      api.type = "server_error";
      api.code = "internal_error";
      break;
  }
  return api;
}

}  // namespace ingot::server
