#include "util/page_arena.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>

namespace ingot {
namespace {

TEST(PageArena, HandsOutAlignedSlicesUntilFull) {
  PageArena arena(64 * 3);
  uint8_t* a = arena.take(10);
  uint8_t* b = arena.take(64);
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(a) % 64, 0u);
  EXPECT_EQ(b - a, 64);
  std::memset(a, 1, 10);
  std::memset(b, 2, 64);
  EXPECT_EQ(arena.take(65), nullptr) << "only 64 bytes remain";
  EXPECT_NE(arena.take(64), nullptr);
  EXPECT_EQ(arena.take(1), nullptr);
}

TEST(PageArena, FootprintsOfSlicesReserveExactlyEnough) {
  EXPECT_EQ(PageArena::footprint(10), 64u);
  EXPECT_EQ(PageArena::footprint(64), 64u);
  PageArena arena(PageArena::footprint(10) + PageArena::footprint(65));
  EXPECT_NE(arena.take(10), nullptr);
  EXPECT_NE(arena.take(65), nullptr);
}

TEST(PageArena, EmptyArenaGivesNothing) {
  PageArena arena;
  EXPECT_EQ(arena.take(1), nullptr);
  PageArena zero(0);
  EXPECT_EQ(zero.take(1), nullptr);
}

TEST(PageArena, MovingKeepsTheMemory) {
  PageArena arena(4096);
  uint8_t* p = arena.take(100);
  std::memset(p, 7, 100);
  PageArena moved(std::move(arena));
  EXPECT_EQ(p[99], 7);
  EXPECT_EQ(moved.capacity(), 4096u);
  EXPECT_EQ(arena.take(1), nullptr);  // NOLINT(bugprone-use-after-move): moved-from is empty
}

}  // namespace
}  // namespace ingot
