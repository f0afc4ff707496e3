#include "server/engine_events.h"

#include <sys/socket.h>

#include <cerrno>

namespace ingot::server {

struct EngineEvents::Shared {
  explicit Shared(asio::any_io_executor executor) : wake(executor) {}
  asio::steady_timer wake;
  bool client_gone = false;
  bool finished = false;  // the exchange is over: the socket may be gone
};

EngineEvents::EngineEvents(asio::any_io_executor executor, engine::RequestHandle handle)
    : handle_(std::move(handle)), shared_(std::make_shared<Shared>(executor)) {
  std::weak_ptr<Shared> weak = shared_;
  handle_.set_notify([executor, weak] {
    asio::post(executor, [weak] {
      if (auto shared = weak.lock()) shared->wake.cancel();
    });
  });
}

EngineEvents::~EngineEvents() {
  shared_->finished = true;
  handle_.set_notify(nullptr);
  handle_.abandon();  // a no-op for a finished request; stops one left running
}

bool EngineEvents::client_gone() const {
  return shared_->client_gone;
}

void EngineEvents::watch(tcp::socket& socket, EndOfInput end_of_input) {
  arm(shared_, socket, end_of_input);
}

void EngineEvents::arm(const std::shared_ptr<Shared>& shared, tcp::socket& socket,
                       EndOfInput end_of_input) {
  socket.async_wait(tcp::socket::wait_read,
                    [shared, &socket, end_of_input](boost::system::error_code ec) {
                      if (ec || shared->finished) return;
                      char byte;
                      ssize_t n = ::recv(socket.native_handle(), &byte, 1, MSG_PEEK | MSG_DONTWAIT);
                      if (n > 0) return;  // a pipelined request: the client is still there
                      if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) {
                        arm(shared, socket, end_of_input);
                        return;
                      }
                      // The socket stays readable at its end: the watch ends here either way.
                      if (n == 0 && end_of_input == EndOfInput::kLeftToWrites) return;
                      shared->client_gone = true;
                      shared->wake.cancel();
                    });
}

asio::awaitable<std::optional<engine::Event>> EngineEvents::next() {
  bool quiet = false;
  co_return co_await next_within(asio::steady_timer::duration::max(), quiet);
}

// The wake-up timer is cancelled by each notify; it expires only when
// `patience` passes first.
asio::awaitable<std::optional<engine::Event>> EngineEvents::next_within(
    std::chrono::steady_clock::duration patience, bool& quiet) {
  quiet = false;
  const auto now = asio::steady_timer::clock_type::now();
  const auto deadline = patience >= asio::steady_timer::time_point::max() - now
                            ? asio::steady_timer::time_point::max()
                            : now + patience;
  for (;;) {
    if (shared_->client_gone) {
      handle_.abandon();
      co_return std::nullopt;
    }
    if (auto event = handle_.try_next()) co_return event;
    if (asio::steady_timer::clock_type::now() >= deadline) {
      quiet = true;
      co_return std::nullopt;
    }
    shared_->wake.expires_at(deadline);
    boost::system::error_code ignored;
    co_await shared_->wake.async_wait(asio::redirect_error(asio::use_awaitable, ignored));
  }
}

}  // namespace ingot::server
