#include "util/memory_info.h"

#include <gtest/gtest.h>

namespace ingot {
namespace {

TEST(MemoryInfo, ReadsMemAvailableInBytes) {
  const char* meminfo =
      "MemTotal:       24608128 kB\n"
      "MemFree:         1234567 kB\n"
      "MemAvailable:   20000000 kB\n"
      "Buffers:           12345 kB\n";
  EXPECT_EQ(parse_mem_available(meminfo), uint64_t{20000000} * 1024);
}

TEST(MemoryInfo, UnknownWithoutAValue) {
  EXPECT_EQ(parse_mem_available("MemTotal: 1 kB\n"), std::nullopt);
  EXPECT_EQ(parse_mem_available("MemAvailable:\n"), std::nullopt);
  EXPECT_EQ(parse_mem_available("MemAvailable: lots\n"), std::nullopt);
}

TEST(MemoryInfo, ThisMachineHasSome) {
  const auto available = available_memory_bytes();
  ASSERT_TRUE(available.has_value());
  EXPECT_GT(*available, 0u);
}

}  // namespace
}  // namespace ingot
