#pragma once
// Delivers one request's engine events to a coroutine on the io thread
// without blocking it: the engine's notify posts a wake-up, and the
// coroutine drains the channel. Also watches the client's socket, so that a
// client that closes its connection (while queued, in prefill, or awaiting
// a whole reply) cancels the request at once.

#include <chrono>
#include <memory>
#include <optional>

#include "engine/request_handle.h"
#include "server/http/departure_watch.h"
#include "server/http/http_types.h"

namespace ingot::server {

class EngineEvents {
 public:
  EngineEvents(asio::any_io_executor executor, engine::RequestHandle handle);
  ~EngineEvents();
  EngineEvents(const EngineEvents&) = delete;
  EngineEvents& operator=(const EngineEvents&) = delete;

  using EndOfInput = DepartureWatch::EndOfInput;

  // Arms the disconnect watch on the client's socket.
  void watch(tcp::socket& socket, EndOfInput end_of_input);

  // The next event, or nullopt when the client has gone (the request is
  // then cancelled and its remaining events dropped).
  asio::awaitable<std::optional<engine::Event>> next();
  // As next(), but waits at most `patience`: when nothing came by then,
  // returns nullopt with `quiet` set (the client is still there), so that
  // a stream can send a keep-alive while prefill runs.
  asio::awaitable<std::optional<engine::Event>> next_within(
      std::chrono::steady_clock::duration patience, bool& quiet);

  bool client_gone() const;
  engine::RequestHandle& handle() { return handle_; }

 private:
  struct Shared;

  engine::RequestHandle handle_;
  std::shared_ptr<Shared> shared_;
  std::optional<DepartureWatch> departure_;
};

}  // namespace ingot::server
