// Quantized KV tiles: a stored position widens to exactly what llama.cpp's
// quantize-then-dequantize of its key or value gives (as F16), whatever
// order positions are written in; the AVX-512 widening equals the scalar.

#include "kernels/kv_tiles.h"

#include <gtest/gtest.h>

#include <cstddef>
#include <string>
#include <vector>

#include "kernels/block_formats.h"
#include "kernels/dequantize.h"
#include "kernels/dispatch.h"
#include "kernels/half.h"
#include "kernels/ops_test_support.h"
#include "kernels/quantize.h"

namespace ingot::kernels {
namespace {

using testing::random_floats;

constexpr int64_t kBlock = 32;

struct Case {
  ElementType type;
  int64_t head_dim;
};

class KvTiles : public ::testing::TestWithParam<Case> {};

// What one position's vector reads back as: quantized in groups of 32,
// dequantized, rounded to F16.
std::vector<uint16_t> round_trip(ElementType type, const float* x, int64_t n) {
  std::vector<std::byte> blocks(*row_bytes(type, n));
  quantize_row(type, x, blocks.data(), n);
  std::vector<float> back(static_cast<size_t>(n));
  dequantize_row(type, blocks.data(), back.data(), n);
  std::vector<uint16_t> out(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) out[size_t(i)] = f32_to_f16(back[size_t(i)]);
  return out;
}

// Positions written in an order that is neither up nor down, so that a
// nibble written for one position must leave its neighbour's alone.
std::vector<int64_t> write_order() {
  std::vector<int64_t> order;
  for (int64_t i = 0; i < kBlock; ++i) order.push_back((i * 7 + 3) % kBlock);
  return order;
}

TEST_P(KvTiles, StoredKeysWidenToTheirRoundTrip) {
  const auto [type, head_dim] = GetParam();
  const std::vector<float> keys = random_floats(kBlock * head_dim, 2.0f, 11);
  std::vector<std::byte> tile(kv_tile_bytes(type, head_dim, kBlock));
  for (int64_t j : write_order()) {
    store_key(type, keys.data() + j * head_dim, head_dim, kBlock, j, tile.data());
  }
  std::vector<uint16_t> widened(size_t(head_dim * kBlock));
  scalar::widen_keys_fn(type)(tile.data(), head_dim, kBlock, widened.data());
  for (int64_t j = 0; j < kBlock; ++j) {
    const std::vector<uint16_t> expected = round_trip(type, keys.data() + j * head_dim, head_dim);
    for (int64_t d = 0; d < head_dim; ++d) {
      ASSERT_EQ(widened[size_t(d * kBlock + j)], expected[size_t(d)])
          << "position " << j << " dim " << d;
    }
  }
}

TEST_P(KvTiles, StoredValuesWidenToTheirRoundTrip) {
  const auto [type, head_dim] = GetParam();
  const std::vector<float> values = random_floats(kBlock * head_dim, 2.0f, 12);
  std::vector<std::byte> tile(kv_tile_bytes(type, head_dim, kBlock));
  for (int64_t j : write_order()) {
    store_value(type, values.data() + j * head_dim, head_dim, j, tile.data());
  }
  std::vector<uint16_t> widened(size_t(head_dim * kBlock), 0xFFFF);
  scalar::widen_values_fn(type)(tile.data(), head_dim, 5, 20, widened.data());
  for (int64_t j = 0; j < kBlock; ++j) {
    const std::vector<uint16_t> expected = round_trip(type, values.data() + j * head_dim, head_dim);
    for (int64_t d = 0; d < head_dim; ++d) {
      const uint16_t got = widened[size_t(j * head_dim + d)];
      if (j < 5 || j >= 25) {
        ASSERT_EQ(got, 0xFFFF) << "row " << j << " is outside the rows asked for";
      } else {
        ASSERT_EQ(got, expected[size_t(d)]) << "row " << j << " dim " << d;
      }
    }
  }
}

void expect_widening_equals_the_scalar(const KernelTable& path, Case c) {
  const auto [type, head_dim] = c;
  const std::vector<float> x = random_floats(kBlock * head_dim, 3.0f, 13);
  std::vector<std::byte> keys(kv_tile_bytes(type, head_dim, kBlock));
  std::vector<std::byte> values(kv_tile_bytes(type, head_dim, kBlock));
  for (int64_t j = 0; j < kBlock; ++j) {
    store_key(type, x.data() + j * head_dim, head_dim, kBlock, j, keys.data());
    store_value(type, x.data() + j * head_dim, head_dim, j, values.data());
  }
  const size_t n = size_t(head_dim * kBlock);
  std::vector<uint16_t> scalar_keys(n), simd_keys(n), scalar_values(n), simd_values(n);
  scalar::widen_keys_fn(type)(keys.data(), head_dim, kBlock, scalar_keys.data());
  path.widen_keys(type)(keys.data(), head_dim, kBlock, simd_keys.data());
  scalar::widen_values_fn(type)(values.data(), head_dim, 0, kBlock, scalar_values.data());
  path.widen_values(type)(values.data(), head_dim, 0, kBlock, simd_values.data());
  EXPECT_EQ(simd_keys, scalar_keys);
  EXPECT_EQ(simd_values, scalar_values);
}

TEST_P(KvTiles, EveryPathsWideningEqualsTheScalar) {
  for (const KernelTable* path : testing::vector_paths()) {
    SCOPED_TRACE(isa_name(path->isa));
    expect_widening_equals_the_scalar(*path, GetParam());
  }
}

TEST(KvTileSizes, QuantizedTilesAreTheirBlocksAndScales) {
  EXPECT_EQ(kv_tile_bytes(ElementType::kF16, 64, 32), 64u * 32 * 2);
  EXPECT_EQ(kv_tile_bytes(ElementType::kQ8_0, 64, 32), 2u * 32 * sizeof(BlockQ8_0));
  EXPECT_EQ(kv_tile_bytes(ElementType::kQ4_0, 64, 32), 2u * 32 * sizeof(BlockQ4_0));
  EXPECT_FALSE(kv_head_dim_supported(ElementType::kQ8_0, 80));
  EXPECT_TRUE(kv_head_dim_supported(ElementType::kF16, 80));
}

INSTANTIATE_TEST_SUITE_P(
    Types, KvTiles,
    ::testing::Values(Case{ElementType::kQ8_0, 64}, Case{ElementType::kQ8_0, 256},
                      Case{ElementType::kQ4_0, 64}, Case{ElementType::kQ4_0, 128}),
    [](const ::testing::TestParamInfo<Case>& info) {
      return std::string(info.param.type == ElementType::kQ8_0 ? "q8_0" : "q4_0") + "_head" +
             std::to_string(info.param.head_dim);
    });

}  // namespace
}  // namespace ingot::kernels
