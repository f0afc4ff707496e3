#pragma once
// One named Server-Sent Event: Anthropic's and the Responses API's streams
// name each event, and their writers produce these.

#include <nlohmann/json.hpp>
#include <string>

namespace ingot::server {

struct StreamEvent {
  std::string name;
  nlohmann::ordered_json data;
};

}  // namespace ingot::server
