#pragma once
// The next engine event of a stream, with an SSE comment written each
// second the engine has nothing to say (a queue, a long prefill, a
// diffusion model's canvas): proxies with idle timeouts keep the stream
// open, and a write finds a client that has gone (a half-closed socket
// cannot tell it otherwise), so that its work stops. llama-server pings
// its silent streams as often. Clients skip comment lines.

#include <chrono>
#include <optional>

#include "server/engine_events.h"
#include "server/http/http_exchange.h"

namespace ingot::server {

inline constexpr std::chrono::seconds kStreamKeepAliveEvery{1};

// Null when the client is gone (or the events ended without one).
inline asio::awaitable<std::optional<engine::Event>> next_event_keeping_alive(
    HttpExchange& exchange, EngineEvents& events) {
  for (;;) {
    bool quiet = false;
    std::optional<engine::Event> event = co_await events.next_within(kStreamKeepAliveEvery, quiet);
    if (!quiet) co_return event;
    if (!co_await exchange.send_comment("ping")) co_return std::nullopt;
  }
}

}  // namespace ingot::server
