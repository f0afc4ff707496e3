#include "kernels/interleave.h"

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "kernel_test_data.h"
#include "kernels/block_formats.h"

namespace ingot::kernels {
namespace {

TEST(Interleave, OnlyQ4_0AndQ8_0) {
  EXPECT_TRUE(can_interleave(ElementType::kQ4_0));
  EXPECT_TRUE(can_interleave(ElementType::kQ8_0));
  EXPECT_FALSE(can_interleave(ElementType::kQ4_K));
  EXPECT_FALSE(can_interleave(ElementType::kF16));
}

TEST(Interleave, RowsPadToWholeGroups) {
  EXPECT_EQ(interleaved_groups(32), 1);
  EXPECT_EQ(interleaved_groups(16 * 32), 1);
  EXPECT_EQ(interleaved_groups(17 * 32), 2);
  EXPECT_EQ(interleaved_row_bytes(ElementType::kQ4_0, 17 * 32), 2u * 16 * sizeof(BlockQ4_0));
  EXPECT_EQ(interleaved_row_bytes(ElementType::kQ8_0, 896), 2u * 16 * sizeof(BlockQ8_0));
}

// Q8_0 block b's element e lands in vector e / 4, lane b, byte e % 4, plus 128;
// blocks past the row's end are zero.
TEST(Interleave, Q8_0WeightsGoToTheirBlocksLane) {
  const int64_t cols = 18 * 32;
  const auto values = testing::random_floats(cols, 7);
  const auto row = testing::quantize_matrix(ElementType::kQ8_0, values, 1, cols);
  std::vector<uint8_t> out(interleaved_row_bytes(ElementType::kQ8_0, cols), 0xff);
  interleave_weight_row(ElementType::kQ8_0, row.data(), cols, out.data());
  const size_t group_bytes = 16 * sizeof(BlockQ8_0);
  for (int64_t b = 0; b < 32; ++b) {
    const uint8_t* group = out.data() + (b / 16) * group_bytes;
    const int lane = int(b % 16);
    uint16_t d;
    std::memcpy(&d, group + lane * 2, 2);
    for (int e = 0; e < 32; ++e) {
      const uint8_t got = group[32 + (e / 4) * 64 + lane * 4 + e % 4];
      if (b < 18) {
        BlockQ8_0 block;
        std::memcpy(&block, row.data() + b * sizeof(block), sizeof(block));
        ASSERT_EQ(d, block.d);
        ASSERT_EQ(got, uint8_t(block.qs[e]) ^ 0x80) << "block " << b << " element " << e;
      } else {
        ASSERT_EQ(d, 0);
        ASSERT_EQ(got, 0);
      }
    }
  }
}

// Activations: F32 scales, negated block sums, then signed quants in the
// weights' order; padding is zero.
TEST(Interleave, ActivationsCarryScalesAndNegatedSums) {
  const int64_t cols = 3 * 32;
  const auto values = testing::random_floats(cols, 9);
  const auto row = testing::quantize_matrix(ElementType::kQ8_0, values, 1, cols);
  std::vector<uint8_t> out(kActivationGroupBytes, 0xff);
  interleave_activation_row(row.data(), cols, out.data());
  for (int lane = 0; lane < 16; ++lane) {
    float d;
    int32_t neg_sum;
    std::memcpy(&d, out.data() + lane * 4, 4);
    std::memcpy(&neg_sum, out.data() + 64 + lane * 4, 4);
    int32_t expected_sum = 0;
    if (lane < 3) {
      BlockQ8_0 block;
      std::memcpy(&block, row.data() + lane * sizeof(block), sizeof(block));
      for (int e = 0; e < 32; ++e) {
        expected_sum -= block.qs[e];
        ASSERT_EQ(int8_t(out[128 + (e / 4) * 64 + lane * 4 + e % 4]), block.qs[e]);
      }
      EXPECT_GT(d, 0.0f);
    } else {
      EXPECT_EQ(d, 0.0f);
    }
    EXPECT_EQ(neg_sum, expected_sum) << "lane " << lane;
  }
}

}  // namespace
}  // namespace ingot::kernels
