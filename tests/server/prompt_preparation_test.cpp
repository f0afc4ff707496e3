#include "server/prompt_preparation.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace ingot::server {
namespace {

// Work runs on the pool's threads and the coroutine resumes on its own
// executor, with the value or the exception.
TEST(PromptPool, RunsWorkElsewhereAndResumesAtHome) {
  asio::io_context io;
  PromptPool pool(2);
  std::thread::id io_thread;
  std::thread::id work_thread;
  std::thread::id resumed_on;
  std::string result;
  bool rethrown = false;
  // Named, so the closure outlives the coroutine that refers to it.
  auto body = [&]() -> asio::awaitable<void> {
    io_thread = std::this_thread::get_id();
    result = co_await pool.run(io.get_executor(), [&] {
      work_thread = std::this_thread::get_id();
      return std::string("tokens");
    });
    resumed_on = std::this_thread::get_id();
    try {
      co_await pool.run(io.get_executor(), []() -> int { throw std::runtime_error("bad"); });
    } catch (const std::runtime_error&) {
      rethrown = true;
    }
  };
  asio::co_spawn(io, body, asio::detached);
  io.run();
  EXPECT_EQ(result, "tokens");
  EXPECT_NE(work_thread, io_thread);
  EXPECT_EQ(resumed_on, io_thread);
  EXPECT_TRUE(rethrown);
}

// Requests reach the engine in the order they arrived, whichever finished
// preparing first; a ticket released without submitting lets the next go.
TEST(AdmissionOrder, TurnsComeInArrivalOrder) {
  asio::io_context io;
  AdmissionOrder order;
  std::vector<int> admitted;
  std::vector<AdmissionOrder::Ticket> tickets;
  for (int i = 0; i < 4; ++i) tickets.push_back(order.take());
  auto admit = [&](int i) -> asio::awaitable<void> {
    co_await tickets[static_cast<size_t>(i)].wait_turn();
    admitted.push_back(i);
    tickets[static_cast<size_t>(i)].release();
  };
  // The later ones are ready first.
  asio::co_spawn(io, admit(3), asio::detached);
  asio::co_spawn(io, admit(2), asio::detached);
  io.poll();
  EXPECT_TRUE(admitted.empty());
  asio::co_spawn(io, admit(0), asio::detached);
  io.poll();
  EXPECT_EQ(admitted, (std::vector<int>{0}));
  tickets[1].release();  // refused before its turn: not admitted, not in the way
  io.poll();
  EXPECT_EQ(admitted, (std::vector<int>{0, 2, 3}));
  AdmissionOrder::Ticket late = order.take();
  auto admit_late = [&]() -> asio::awaitable<void> {
    co_await late.wait_turn();
    admitted.push_back(4);
  };
  asio::co_spawn(io, admit_late, asio::detached);
  io.restart();  // it ran out of work, which stops it
  io.poll();
  EXPECT_EQ(admitted, (std::vector<int>{0, 2, 3, 4}));
}

}  // namespace
}  // namespace ingot::server
