// A request's events as a route awaits them: at once when one is queued,
// and, with a patience, a quiet wake-up when none came in time (a stream's
// keep-alive), with the request left running.

#include "server/engine_events.h"

#include <gtest/gtest.h>

namespace ingot::server {
namespace {

struct Awaited {
  std::optional<engine::Event> event;
  bool quiet = false;
};

Awaited await_within(asio::io_context& io, EngineEvents& events,
                     std::chrono::steady_clock::duration patience) {
  Awaited awaited;
  asio::co_spawn(
      io,
      [&]() -> asio::awaitable<void> {
        awaited.event = co_await events.next_within(patience, awaited.quiet);
      },
      asio::detached);
  io.restart();
  io.run();
  return awaited;
}

TEST(EngineEvents, NothingWithinThePatienceIsQuietAndTheRequestRuns) {
  asio::io_context io;
  auto state = std::make_shared<engine::RequestState>(1);
  EngineEvents events(io.get_executor(), engine::RequestHandle(state, nullptr));
  Awaited awaited = await_within(io, events, std::chrono::milliseconds(0));
  EXPECT_TRUE(awaited.quiet);
  EXPECT_FALSE(awaited.event.has_value());
  EXPECT_FALSE(state->cancelled.load());
}

TEST(EngineEvents, AQueuedEventComesAtOnceWhateverThePatience) {
  asio::io_context io;
  auto state = std::make_shared<engine::RequestState>(1);
  EngineEvents events(io.get_executor(), engine::RequestHandle(state, nullptr));
  engine::TextEvent text;
  text.content = "hi";
  state->events.push(engine::Event(text));
  Awaited awaited = await_within(io, events, std::chrono::hours(1));
  EXPECT_FALSE(awaited.quiet);
  ASSERT_TRUE(awaited.event.has_value());
  EXPECT_EQ(std::get<engine::TextEvent>(*awaited.event).content, "hi");
}

}  // namespace
}  // namespace ingot::server
