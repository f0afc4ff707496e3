#pragma once
// Rendering and tokenizing off the I/O thread. A chat prompt is rendered by
// its template and tokenized before admission; on a large prompt that takes
// long enough to stall every stream the I/O thread writes. So the routes
// hand that work to a small pool and resume on the connection's executor
// when it is done (admission_order.h keeps the arrival order).

#include <cstdint>
#include <exception>
#include <memory>
#include <optional>
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

}  // namespace ingot::server
