#pragma once
// Rendering and tokenizing off the I/O thread. A chat prompt is rendered by
// its template and tokenized before admission; on a large prompt that takes
// long enough to stall every stream the I/O thread writes. So the routes
// hand that work to a small pool and resume on the connection's executor
// when it is done, and an AdmissionOrder keeps the engine seeing requests
// in the order they arrived, however long each one's preparation took.

#include <cstdint>
#include <exception>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <type_traits>
#include <utility>

#include "server/http/http_types.h"

namespace ingot::server {

class PromptPool {
 public:
  explicit PromptPool(size_t threads) : pool_(threads) {}
  ~PromptPool() { pool_.join(); }

  // Runs `work` on the pool, then resumes on `home` (the caller's own
  // executor, single-threaded) with its result. Exceptions from `work`
  // are rethrown on `home`.
  template <class Work>
  asio::awaitable<std::invoke_result_t<Work>> run(asio::any_io_executor home, Work work) {
    using Value = std::invoke_result_t<Work>;
    // Shared with the pool's task, which may outlive a cancelled caller.
    struct State {
      explicit State(asio::any_io_executor home) : done(home) {}
      asio::steady_timer done;
      std::optional<Value> value;
      std::exception_ptr failure;
    };
    auto state = std::make_shared<State>(home);
    state->done.expires_at(asio::steady_timer::time_point::max());
    asio::post(pool_, [state, home, work = std::move(work)]() mutable {
      try {
        state->value.emplace(work());
      } catch (...) {
        state->failure = std::current_exception();
      }
      asio::post(home, [state] { state->done.cancel(); });
    });
    boost::system::error_code ignored;
    co_await state->done.async_wait(asio::redirect_error(asio::use_awaitable, ignored));
    if (state->failure) std::rethrow_exception(state->failure);
    co_return std::move(*state->value);
  }

 private:
  asio::thread_pool pool_;
};

// Tickets in arrival order, on the I/O thread only. A request takes one as
// it arrives, and submits to the engine once every earlier ticket is
// released (submitted, refused, or abandoned).
class AdmissionOrder {
 public:
  class Ticket {
   public:
    Ticket() = default;
    Ticket(AdmissionOrder* order, uint64_t number) : order_(order), number_(number) {}
    Ticket(Ticket&& other) noexcept
        : order_(std::exchange(other.order_, nullptr)), number_(other.number_) {}
    Ticket& operator=(Ticket&& other) noexcept {
      release();
      order_ = std::exchange(other.order_, nullptr);
      number_ = other.number_;
      return *this;
    }
    ~Ticket() { release(); }

    // Returns once every earlier ticket is released.
    asio::awaitable<void> wait_turn();
    void release() {
      if (order_) std::exchange(order_, nullptr)->release(number_);
    }

   private:
    AdmissionOrder* order_ = nullptr;
    uint64_t number_ = 0;
  };

  Ticket take() {
    outstanding_.insert(next_);
    return Ticket(this, next_++);
  }

 private:
  void release(uint64_t number);
  asio::awaitable<void> wait_turn(uint64_t number);

  uint64_t next_ = 0;
  std::set<uint64_t> outstanding_;                   // taken, not yet released
  std::map<uint64_t, asio::steady_timer*> waiting_;  // parked in wait_turn
};

}  // namespace ingot::server
