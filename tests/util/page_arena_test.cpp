#include "util/page_arena.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "util/mapped_file.h"

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

TEST(ReleaseMappedPages, ContentsReadBackFromTheFile) {
  const std::string path = testing::TempDir() + "/page_arena_release.bin";
  std::vector<uint8_t> bytes(5 * 4096 + 123);
  for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<uint8_t>(i * 31 + 7);
  {
    std::FILE* f = std::fopen(path.c_str(), "wb");
    ASSERT_NE(f, nullptr);
    ASSERT_EQ(std::fwrite(bytes.data(), 1, bytes.size(), f), bytes.size());
    std::fclose(f);
  }
  auto file = MappedFile::open(path);
  ASSERT_TRUE(file.ok());
  const uint8_t* data = file.value().data();
  ASSERT_EQ(std::memcmp(data, bytes.data(), bytes.size()), 0);
  // An unaligned range: only the whole pages inside it are dropped.
  release_mapped_pages(data + 100, bytes.size() - 200);
  EXPECT_EQ(std::memcmp(data, bytes.data(), bytes.size()), 0);
  std::remove(path.c_str());
}

}  // namespace
}  // namespace ingot
