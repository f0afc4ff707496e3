#include "server/http/departure_watch.h"

#include <sys/socket.h>

#include <cerrno>

namespace ingot::server {

// Shared with the pending wait, which may complete after the watch is
// gone (and the socket with it): `finished` tells it to touch nothing.
struct DepartureWatch::State {
  std::atomic<bool> gone = false;
  bool finished = false;
  std::function<void()> on_departure;
};

DepartureWatch::DepartureWatch(tcp::socket& socket, EndOfInput end_of_input,
                               std::function<void()> on_departure)
    : state_(std::make_shared<State>()) {
  state_->on_departure = std::move(on_departure);
  arm(state_, socket, end_of_input);
}

DepartureWatch::~DepartureWatch() {
  state_->finished = true;
  state_->on_departure = nullptr;
}

const std::atomic<bool>& DepartureWatch::gone() const {
  return state_->gone;
}

void DepartureWatch::arm(const std::shared_ptr<State>& state, tcp::socket& socket,
                         EndOfInput end_of_input) {
  socket.async_wait(tcp::socket::wait_read,
                    [state, &socket, end_of_input](boost::system::error_code ec) {
                      if (ec || state->finished) return;
                      char byte;
                      ssize_t n = ::recv(socket.native_handle(), &byte, 1, MSG_PEEK | MSG_DONTWAIT);
                      if (n > 0) return;  // a pipelined request: the client is still there
                      if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) {
                        arm(state, socket, end_of_input);
                        return;
                      }
                      // The socket stays readable at its end: the watch ends here either way.
                      if (n == 0 && end_of_input == EndOfInput::kLeftToWrites) return;
                      state->gone = true;
                      if (state->on_departure) state->on_departure();
                    });
}

}  // namespace ingot::server
