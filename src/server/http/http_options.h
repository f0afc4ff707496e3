#pragma once
// Limits and settings of the HTTP front end.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ingot::server {

// How long and how much a refused request's unread body is read and
// discarded before its connection closes (see lingering_close.h).
struct LingerLimits {
  std::chrono::milliseconds total{30'000};  // the whole discard, however fast the client
  std::chrono::milliseconds idle{5'000};    // between two reads
  size_t max_bytes = size_t{256} << 20;     // what is discarded before giving up
};

struct HttpOptions {
  std::string host = "127.0.0.1";
  uint16_t port = 8080;  // 0 picks a free port (tests)
  size_t max_body_bytes = 8u << 20;
  size_t max_header_bytes = 16u << 10;
  // A client must send a whole header within this time (slowloris guard),
  // and an idle keep-alive connection is closed after it.
  std::chrono::milliseconds header_timeout{30'000};
  // A client whose socket takes no more of its response for this long (a
  // write blocked the whole time: it stopped reading) is dropped and its
  // generation cancelled (--slow-client-timeout). The server's own
  // slowness never counts: the engine pauses a request it cannot deliver.
  std::chrono::milliseconds slow_client_timeout{30'000};
  std::optional<std::string> api_key;
  LingerLimits linger;
  // Connections held at once (--max-connections); 0 takes it from the
  // descriptor limit. At the cap the oldest idle keep-alive connection is
  // closed for a new one; with none idle, new ones wait in the backlog.
  size_t max_connections = 0;
  // Listening on loopback, a request's Host must name a loopback host or
  // one of these (--allowed-host; "*" any): the DNS-rebinding guard.
  std::vector<std::string> allowed_hosts;
  // Origins whose pages may call the server besides loopback ones
  // (--cors-origin; "*" any).
  std::vector<std::string> cors_origins;
};

}  // namespace ingot::server
