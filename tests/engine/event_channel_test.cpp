#include "engine/event_channel.h"

#include <gtest/gtest.h>

#include <thread>

namespace ingot::engine {
namespace {

TEST(EventChannel, RoomCountsDownAndTheFinalEventMayExceedIt) {
  EventChannel<int> channel(2);
  EXPECT_EQ(channel.room(), 2u);
  EXPECT_TRUE(channel.push(1));
  EXPECT_EQ(channel.room(), 1u);
  EXPECT_TRUE(channel.push(2));
  EXPECT_EQ(channel.room(), 0u);
  EXPECT_TRUE(channel.full());
  EXPECT_TRUE(channel.push(99));  // the end of a request is never lost
  EXPECT_EQ(channel.room(), 0u);
  EXPECT_EQ(channel.pop(), 1);
  EXPECT_EQ(channel.pop(), 2);
  EXPECT_EQ(channel.pop(), 99);
  EXPECT_FALSE(channel.try_pop().has_value());
  EXPECT_EQ(channel.room(), 2u);
}

TEST(EventChannel, ClosedChannelDropsPushes) {
  EventChannel<int> channel(4);
  channel.close();
  EXPECT_FALSE(channel.push(1));
  EXPECT_EQ(channel.size(), 0u);
}

TEST(EventChannel, NotifyRunsOnEveryPush) {
  EventChannel<int> channel(4);
  int notified = 0;
  channel.set_notify([&] { ++notified; });
  EXPECT_TRUE(channel.push(1));
  EXPECT_TRUE(channel.push(2));
  EXPECT_EQ(notified, 2);
}

TEST(EventChannel, DrainedRingsOnceWhenAFullChannelIsReadDownToHalf) {
  EventChannel<int> channel(4);
  int drained = 0;
  channel.set_drained([&] { ++drained; });
  for (int i = 0; i < 4; ++i) channel.push(i);
  EXPECT_EQ(channel.room(), 0u);  // arms the bell
  channel.pop();
  EXPECT_EQ(drained, 0);  // three left: more than half
  channel.pop();
  EXPECT_EQ(drained, 1);
  channel.pop();
  channel.pop();
  EXPECT_EQ(drained, 1);
}

TEST(EventChannel, DrainedStaysSilentUnlessTheEngineFoundNoRoom) {
  EventChannel<int> channel(4);
  int drained = 0;
  channel.set_drained([&] { ++drained; });
  for (int i = 0; i < 4; ++i) channel.push(i);
  for (int i = 0; i < 4; ++i) channel.pop();
  EXPECT_EQ(drained, 0);
}

TEST(EventChannel, PopWaitsForAProducerOnAnotherThread) {
  EventChannel<int> channel(64);
  std::thread producer([&] {
    for (int i = 0; i < 1000; ++i) {
      while (channel.room() == 0) std::this_thread::yield();
      channel.push(i);
    }
  });
  for (int i = 0; i < 1000; ++i) EXPECT_EQ(channel.pop(), i);
  producer.join();
}

}  // namespace
}  // namespace ingot::engine
