#include "server/openai/json_body.h"

namespace ingot::server {

std::variant<nlohmann::ordered_json, ApiError> parse_json_body(std::string_view body) {
  bool too_deep = false;
  auto depth_guard = [&](int depth, nlohmann::ordered_json::parse_event_t event,
                         nlohmann::ordered_json&) {
    if ((event == nlohmann::ordered_json::parse_event_t::object_start ||
         event == nlohmann::ordered_json::parse_event_t::array_start) &&
        depth >= kMaxJsonDepth) {
      too_deep = true;
    }
    return !too_deep;
  };
  try {
    nlohmann::ordered_json parsed =
        nlohmann::ordered_json::parse(body.begin(), body.end(), depth_guard);
    if (too_deep) {
      return invalid_request("The request body nests deeper than 64 levels.", std::nullopt,
                             "invalid_json");
    }
    return parsed;
  } catch (const nlohmann::ordered_json::exception& e) {
    // Any of nlohmann's exceptions is the body's fault: a syntax error
    // (parse_error) or a number past a double's range (out_of_range.406).
    if (too_deep) {
      return invalid_request("The request body nests deeper than 64 levels.", std::nullopt,
                             "invalid_json");
    }
    // nlohmann prefixes "[json.exception.parse_error.101] "; clients need only the rest.
    std::string_view what = e.what();
    if (size_t bracket = what.find("] "); bracket != std::string_view::npos) {
      what.remove_prefix(bracket + 2);
    }
    return invalid_request("The request body is not valid JSON: " + std::string(what), std::nullopt,
                           "invalid_json");
  }
}

}  // namespace ingot::server
