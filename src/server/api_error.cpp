#include "server/api_error.h"

#include <nlohmann/json.hpp>

namespace ingot::server {

namespace {

bool is_full_queue(const ApiError& error) {
  return error.status == 503 && error.code == "server_busy";
}

// Anthropic's error types, by status.
std::string anthropic_type(const ApiError& error) {
  if (is_full_queue(error)) return "overloaded_error";
  switch (error.status) {
    case 401:
      return "authentication_error";
    case 403:
      return "permission_error";
    case 404:
      return "not_found_error";
    case 413:
      return "request_too_large";
    case 429:
      return "rate_limit_error";
    default:
      return error.status >= 500 ? "api_error" : "invalid_request_error";
  }
}

}  // namespace

ErrorDialect dialect_for_path(std::string_view path) {
  constexpr std::string_view kMessages = "/v1/messages";
  const bool anthropic = path.substr(0, kMessages.size()) == kMessages &&
                         (path.size() == kMessages.size() || path[kMessages.size()] == '/');
  return anthropic ? ErrorDialect::kAnthropic : ErrorDialect::kOpenAI;
}

std::string ApiError::to_json(ErrorDialect dialect) const {
  nlohmann::json body;
  if (dialect == ErrorDialect::kAnthropic) {
    body = {{"type", "error"}, {"error", {{"type", anthropic_type(*this)}, {"message", message}}}};
  } else {
    body = {{"error",
             {{"message", message},
              {"type", type},
              {"param", param ? nlohmann::json(*param) : nlohmann::json(nullptr)},
              {"code", code ? nlohmann::json(*code) : nlohmann::json(nullptr)}}}};
  }
  return body.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

int ApiError::status_in(ErrorDialect dialect) const {
  return dialect == ErrorDialect::kAnthropic && is_full_queue(*this) ? 529 : status;
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
