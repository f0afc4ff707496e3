#include "kernels/interleave.h"

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "kernel_test_data.h"
#include "kernels/block_formats.h"
#include "kernels/dispatch.h"
#include "kernels/kernel_table.h"

namespace ingot::kernels {
namespace {

// One row of `cols` random weights quantized as `type`, and its interleaved
// copy (written over 0xff, so bytes left unwritten show).
struct InterleavedRow {
  std::vector<uint8_t> blocks;
  std::vector<uint8_t> interleaved;
};

InterleavedRow interleave_random_row(ElementType type, int64_t cols, uint32_t seed) {
  InterleavedRow row;
  row.blocks = testing::quantize_matrix(type, testing::random_floats(cols, seed), 1, cols);
  row.interleaved.assign(interleaved_row_bytes(type, cols), 0xff);
  interleave_weight_row(type, row.blocks.data(), cols, row.interleaved.data());
  return row;
}

TEST(Interleave, Q4_0TheTableTypesQ8_0Q4_KAndQ6_KHaveALayout) {
  EXPECT_TRUE(can_interleave(ElementType::kQ4_0));
  EXPECT_TRUE(can_interleave(ElementType::kIQ4_NL));
  EXPECT_TRUE(can_interleave(ElementType::kMXFP4));
  EXPECT_TRUE(can_interleave(ElementType::kIQ4_XS));
  EXPECT_TRUE(can_interleave(ElementType::kQ8_0));
  EXPECT_TRUE(can_interleave(ElementType::kQ4_K));
  EXPECT_TRUE(can_interleave(ElementType::kQ6_K));
  EXPECT_FALSE(can_interleave(ElementType::kQ5_K));
  EXPECT_FALSE(can_interleave(ElementType::kF16));
}

TEST(Interleave, RowsPadToWholeGroups) {
  EXPECT_EQ(interleaved_groups(32), 1);
  EXPECT_EQ(interleaved_groups(16 * 32), 1);
  EXPECT_EQ(interleaved_groups(17 * 32), 2);
  EXPECT_EQ(interleaved_row_bytes(ElementType::kQ4_0, 17 * 32), 2u * 16 * sizeof(BlockQ4_0));
  EXPECT_EQ(interleaved_row_bytes(ElementType::kQ8_0, 896), 2u * 16 * sizeof(BlockQ8_0));
  EXPECT_EQ(interleaved_row_bytes(ElementType::kIQ4_NL, 17 * 32), 2u * 16 * sizeof(BlockIQ4_NL));
  // MXFP4's F32 scales: 3 bytes a block more than its E8M0 ones.
  EXPECT_EQ(interleaved_row_bytes(ElementType::kMXFP4, 17 * 32), 2u * 16 * (4 + 16));
  // Q4_K: a group is two super-blocks; an odd count pads the last.
  EXPECT_EQ(interleaved_row_bytes(ElementType::kQ4_K, 3 * 256), 2 * kQ4KGroupBytes);
  EXPECT_EQ(kQ4KGroupBytes, 296u);
  // IQ4_XS: likewise, 276 bytes a group.
  EXPECT_EQ(interleaved_row_bytes(ElementType::kIQ4_XS, 3 * 256), 2u * 276);
  // Q6_K: 420 bytes a group, the row padded to a cache line.
  EXPECT_EQ(interleaved_row_bytes(ElementType::kQ6_K, 3 * 256), 896u);
  EXPECT_EQ(interleaved_row_bytes(ElementType::kQ6_K, 32 * 256), 16u * 420);
}

// Q6_K super-block b's 32-element chunk c is lane 8 * (b % 2) + c of group
// b / 2: element 16 * s + 4 * k + e of the chunk (s = 0 even, 1 odd) sits
// in bits 0-5 of byte e of vector k of half s's A, B, C for k < 3, and for
// k = 3 in bits 6-7 of those three bytes; the headers follow every
// group's quants. The padding half is zero.
TEST(Interleave, Q6_KChunksGoToTheirLanes) {
  const int64_t cols = 3 * 256;
  const auto [row, out] = interleave_random_row(ElementType::kQ6_K, cols, 23);
  const uint8_t* headers = out.data() + headers_offset(group_layout(ElementType::kQ6_K), cols);
  for (int64_t b = 0; b < 4; ++b) {
    const uint8_t* quants = out.data() + (b / 2) * kQ6KGroupQuantBytes;
    const uint8_t* header = headers + (b / 2) * kQ6KGroupHeaderBytes;
    const int half = int(b % 2);
    BlockQ6_K block{};
    if (b < 3) std::memcpy(&block, row.data() + b * sizeof(block), sizeof(block));
    uint16_t d;
    std::memcpy(&d, header + 2 * half, 2);
    EXPECT_EQ(d, block.d);
    for (int chunk = 0; chunk < 8; ++chunk) {
      const int lane = 8 * half + chunk;
      for (int s = 0; s < 2; ++s) {
        EXPECT_EQ(int8_t(header[4 + 16 * s + lane]), block.scales[2 * chunk + s]);
        const uint8_t* abc = quants + 192 * s + 4 * lane;
        for (int e = 0; e < 4; ++e) {
          for (int k = 0; k < 3; ++k) {
            const int expected = b < 3 ? q6_k_value(block, 32 * chunk + 16 * s + 4 * k + e) : 0;
            ASSERT_EQ(abc[64 * k + e] & 0x3f, expected) << "block " << b << " lane " << lane;
          }
          const int fourth = (abc[e] >> 6) | (abc[64 + e] >> 6) << 2 | (abc[128 + e] >> 6) << 4;
          const int expected = b < 3 ? q6_k_value(block, 32 * chunk + 16 * s + 12 + e) : 0;
          ASSERT_EQ(fourth, expected) << "block " << b << " lane " << lane;
        }
      }
    }
  }
}

// Q4_K super-block b's sub-block s is lane 8 * (b % 2) + s of group b / 2,
// with its scale and min unpacked to bytes and its element e in vector
// (e % 16) / 4, byte e % 4, low nibble for e < 16; the padding half is zero.
TEST(Interleave, Q4_KSubBlocksGoToTheirLanes) {
  const auto [row, out] = interleave_random_row(ElementType::kQ4_K, 3 * 256, 11);
  for (int64_t b = 0; b < 4; ++b) {
    const uint8_t* group = out.data() + (b / 2) * kQ4KGroupBytes;
    const int half = int(b % 2);
    uint16_t d, dmin;
    std::memcpy(&d, group + 2 * half, 2);
    std::memcpy(&dmin, group + 4 + 2 * half, 2);
    BlockQ4_K block{};
    if (b < 3) std::memcpy(&block, row.data() + b * sizeof(block), sizeof(block));
    EXPECT_EQ(d, block.d);
    EXPECT_EQ(dmin, block.dmin);
    for (int sub = 0; sub < 8; ++sub) {
      const int lane = 8 * half + sub;
      const ScaleMin sm = b < 3 ? k4_scale_min(block.scales, sub) : ScaleMin{0, 0};
      EXPECT_EQ(group[8 + lane], sm.scale);
      EXPECT_EQ(group[24 + lane], sm.min);
      for (int e = 0; e < 32; ++e) {
        const int expected = (block.qs[32 * (sub / 2) + e] >> (4 * (sub % 2))) & 0xf;
        const uint8_t byte = group[kQ4KGroupHeaderBytes + ((e % 16) / 4) * 64 + lane * 4 + e % 4];
        const int got = e < 16 ? byte & 0xf : byte >> 4;
        ASSERT_EQ(got, expected) << "super-block " << b << " sub-block " << sub << " element " << e;
      }
    }
  }
}

// Q8_0 block b's element e lands in vector e / 4, lane b, byte e % 4, plus 128;
// blocks past the row's end are zero.
TEST(Interleave, Q8_0WeightsGoToTheirBlocksLane) {
  const auto [row, out] = interleave_random_row(ElementType::kQ8_0, 18 * 32, 7);
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

// Activations: F32 scales, negated block sums, signed quants in the
// weights' order, then the negated sums of each block's first 16 quants;
// padding is zero.
TEST(Interleave, ActivationsCarryScalesAndNegatedSums) {
  const int64_t cols = 3 * 32;
  const auto values = testing::random_floats(cols, 9);
  const auto row = testing::quantize_matrix(ElementType::kQ8_0, values, 1, cols);
  std::vector<uint8_t> out(kActivationGroupBytes, 0xff);
  interleave_activation_row(ElementType::kQ8_0, row.data(), cols, out.data());
  for (int lane = 0; lane < 16; ++lane) {
    float d;
    int32_t neg_sum, neg_half_sum;
    std::memcpy(&d, out.data() + lane * 4, 4);
    std::memcpy(&neg_sum, out.data() + 64 + lane * 4, 4);
    std::memcpy(&neg_half_sum, out.data() + kActivationHalfSumsOffset + lane * 4, 4);
    int32_t expected_sum = 0, expected_half_sum = 0;
    if (lane < 3) {
      BlockQ8_0 block;
      std::memcpy(&block, row.data() + lane * sizeof(block), sizeof(block));
      for (int e = 0; e < 32; ++e) {
        expected_sum -= block.qs[e];
        if (e < 16) expected_half_sum -= block.qs[e];
        ASSERT_EQ(int8_t(out[128 + (e / 4) * 64 + lane * 4 + e % 4]), block.qs[e]);
      }
      EXPECT_GT(d, 0.0f);
    } else {
      EXPECT_EQ(d, 0.0f);
    }
    EXPECT_EQ(neg_sum, expected_sum) << "lane " << lane;
    EXPECT_EQ(neg_half_sum, expected_half_sum) << "lane " << lane;
  }
}

// Q8_K activations: each 32-element sub-block is a lane with its
// super-block's scale, its quants and their negated sum.
TEST(Interleave, Q8_KActivationsSplitIntoSubBlockLanes) {
  const int64_t cols = 3 * 256;
  const auto values = testing::random_floats(cols, 13);
  const auto row = testing::quantize_matrix(ElementType::kQ8_K, values, 1, cols);
  std::vector<uint8_t> out(2 * kActivationGroupBytes, 0xff);
  interleave_activation_row(ElementType::kQ8_K, row.data(), cols, out.data());
  for (int64_t s = 0; s < 32; ++s) {
    const uint8_t* group = out.data() + (s / 16) * kActivationGroupBytes;
    const int lane = int(s % 16);
    float d;
    int32_t neg_sum;
    std::memcpy(&d, group + lane * 4, 4);
    std::memcpy(&neg_sum, group + 64 + lane * 4, 4);
    BlockQ8_K block{};
    if (s < 24) std::memcpy(&block, row.data() + (s / 8) * sizeof(block), sizeof(block));
    EXPECT_EQ(d, block.d);
    int32_t expected_sum = 0;
    for (int e = 0; e < 32; ++e) {
      const int8_t q = block.qs[32 * (s % 8) + e];
      expected_sum -= q;
      ASSERT_EQ(int8_t(group[128 + (e / 4) * 64 + lane * 4 + e % 4]), q);
    }
    EXPECT_EQ(neg_sum, expected_sum) << "sub-block " << s;
  }
}

// Every path's activation interleave gives the scalar one's bytes: one
// block, partial last groups, whole groups; Q8_K with an odd number of
// super-blocks (a half group).
void expect_activations_match_scalar_byte_for_byte(const KernelTable& path) {
  SCOPED_TRACE(isa_name(path.isa));
  const struct {
    ElementType type;
    int64_t cols;
  } cases[] = {{ElementType::kQ8_0, 32},     {ElementType::kQ8_0, 17 * 32},
               {ElementType::kQ8_0, 896},    {ElementType::kQ8_0, 4864},
               {ElementType::kQ8_K, 256},    {ElementType::kQ8_K, 3 * 256},
               {ElementType::kQ8_K, 8 * 256}};
  for (const auto& c : cases) {
    const auto values = testing::random_floats(c.cols, 17);
    const auto row = testing::quantize_matrix(c.type, values, 1, c.cols);
    const size_t bytes = interleaved_groups(c.cols) * kActivationGroupBytes;
    std::vector<uint8_t> scalar(bytes, 0xff), simd(bytes, 0xee);
    interleave_activation_row(c.type, row.data(), c.cols, scalar.data());
    path.interleave_row_for(c.type)(c.type, row.data(), c.cols, simd.data());
    EXPECT_EQ(simd, scalar) << element_type_name(c.type) << " " << c.cols << " columns";
  }
}

TEST(Interleave, EveryPathsActivationsMatchScalarByteForByte) {
  for (Isa isa : kAllIsas) {
    const KernelTable* path = kernel_table(isa);
    if (path != nullptr && path->interleave_row != nullptr) {
      expect_activations_match_scalar_byte_for_byte(*path);
    }
  }
}

}  // namespace
}  // namespace ingot::kernels
