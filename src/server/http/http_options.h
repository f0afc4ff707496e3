#pragma once
// Limits and settings of the HTTP front end.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace ingot::server {

struct HttpOptions {
  std::string host = "127.0.0.1";
  uint16_t port = 8080;  // 0 picks a free port (tests)
  size_t max_body_bytes = 8u << 20;
  size_t max_header_bytes = 16u << 10;
  // A client must send a whole header within this time (slowloris guard),
  // and an idle keep-alive connection is closed after it.
  std::chrono::milliseconds header_timeout{30'000};
  std::optional<std::string> api_key;
};

}  // namespace ingot::server
