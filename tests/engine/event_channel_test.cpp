#include "engine/event_channel.h"

#include <gtest/gtest.h>

#include <thread>

namespace ingot::engine {
namespace {

TEST(EventChannel, RefusesPastCapacityButTakesTheFinalEvent) {
  EventChannel<int> channel(2);
  EXPECT_TRUE(channel.try_push(1));
  EXPECT_TRUE(channel.try_push(2));
  EXPECT_FALSE(channel.try_push(3));
  channel.push_final(99);
  EXPECT_EQ(channel.pop(), 1);
  EXPECT_EQ(channel.pop(), 2);
  EXPECT_EQ(channel.pop(), 99);
  EXPECT_FALSE(channel.try_pop().has_value());
}

TEST(EventChannel, ClosedChannelDropsPushes) {
  EventChannel<int> channel(4);
  channel.close();
  EXPECT_FALSE(channel.try_push(1));
  channel.push_final(2);
  EXPECT_EQ(channel.size(), 0u);
}

TEST(EventChannel, NotifyRunsOnEveryPush) {
  EventChannel<int> channel(4);
  int notified = 0;
  channel.set_notify([&] { ++notified; });
  EXPECT_TRUE(channel.try_push(1));
  channel.push_final(2);
  EXPECT_EQ(notified, 2);
}

TEST(EventChannel, PopWaitsForAProducerOnAnotherThread) {
  EventChannel<int> channel(64);
  std::thread producer([&] {
    for (int i = 0; i < 1000; ++i) {
      while (!channel.try_push(i)) std::this_thread::yield();
    }
  });
  for (int i = 0; i < 1000; ++i) EXPECT_EQ(channel.pop(), i);
  producer.join();
}

}  // namespace
}  // namespace ingot::engine
