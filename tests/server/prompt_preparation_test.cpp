#include "server/prompt_preparation.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <thread>

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

}  // namespace
}  // namespace ingot::server
