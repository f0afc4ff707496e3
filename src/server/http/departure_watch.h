#pragma once
// Watches a client's socket while its request is worked on and nothing is
// read from or written to it: a client that closes its connection (while
// its prompt is prepared, queued, in prefill, or awaiting a whole reply)
// is noticed at once, so that the work for it can stop.

#include <atomic>
#include <functional>
#include <memory>

#include "server/http/http_types.h"

namespace ingot::server {

class DepartureWatch {
 public:
  // What the end of a client's input says. A client that half-closes
  // after sending cannot be told from one that closed until a write
  // finds out: a stream writes soon (its role chunk, tokens, keep-alives),
  // so its client keeps it; a whole reply writes only at the end, so its
  // client is taken to have left (as nginx takes it).
  enum class EndOfInput { kLeaves, kLeftToWrites };

  // Watches `socket` until destroyed; `on_departure` runs on the socket's
  // executor when the client leaves.
  DepartureWatch(tcp::socket& socket, EndOfInput end_of_input,
                 std::function<void()> on_departure = nullptr);
  ~DepartureWatch();
  DepartureWatch(const DepartureWatch&) = delete;
  DepartureWatch& operator=(const DepartureWatch&) = delete;

  // Set once the client has left; other threads may read it.
  const std::atomic<bool>& gone() const;

 private:
  struct State;
  static void arm(const std::shared_ptr<State>& state, tcp::socket& socket,
                  EndOfInput end_of_input);

  std::shared_ptr<State> state_;
};

}  // namespace ingot::server
