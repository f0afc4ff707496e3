#include "server/engine_events.h"

namespace ingot::server {

struct EngineEvents::Shared {
  explicit Shared(asio::any_io_executor executor) : wake(executor) {}
  asio::steady_timer wake;
  bool client_gone = false;
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
  handle_.set_notify(nullptr);
  handle_.abandon();  // a no-op for a finished request; stops one left running
}

bool EngineEvents::client_gone() const {
  return shared_->client_gone;
}

void EngineEvents::watch(tcp::socket& socket, EndOfInput end_of_input) {
  std::weak_ptr<Shared> weak = shared_;
  departure_.emplace(socket, end_of_input, [weak] {
    if (auto shared = weak.lock()) {
      shared->client_gone = true;
      shared->wake.cancel();
    }
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
