#include "server/admission_order.h"

namespace ingot::server {

asio::awaitable<void> AdmissionOrder::Ticket::wait_turn() {
  if (order_ && place_) co_await order_->wait_turn(*place_);
}

asio::awaitable<void> AdmissionOrder::wait_turn(uint64_t number) {
  asio::steady_timer wake(co_await asio::this_coro::executor);
  // Unparks even when the frame is destroyed mid-wait (shutdown).
  struct Parked {
    std::map<uint64_t, asio::steady_timer*>& waiting;
    uint64_t number;
    ~Parked() { waiting.erase(number); }
  } parked{waiting_, number};
  while (!outstanding_.empty() && *outstanding_.begin() != number) {
    wake.expires_at(asio::steady_timer::time_point::max());
    waiting_[number] = &wake;
    boost::system::error_code ignored;
    co_await wake.async_wait(asio::redirect_error(asio::use_awaitable, ignored));
  }
}

void AdmissionOrder::leave_line(uint64_t number) {
  outstanding_.erase(number);
  if (outstanding_.empty()) return;
  auto first = waiting_.find(*outstanding_.begin());
  if (first != waiting_.end()) first->second->cancel();
}

}  // namespace ingot::server
