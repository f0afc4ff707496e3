#include "kernels/quantize.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <vector>

#include "kernel_test_data.h"
#include "kernels/block_formats.h"
#include "kernels/dequantize.h"

namespace ingot::kernels {
namespace {

using testing::random_floats;

// Expected bytes worked out by hand from llama.cpp's reference formulas.
TEST(QuantizeQ8_0, MatchesTheReferenceFormula) {
  std::vector<float> x(3 * kQK, 0.0f);
  // Block 0: amax 127, so d = 1 and q = roundf(x): ties away from zero.
  const float block0[8] = {127.0f, 0.5f, -2.5f, 3.4f, -126.6f, 1.5f, -0.49f, 0.0f};
  std::memcpy(x.data(), block0, sizeof(block0));
  // Block 1: all zeros, d = 0. Block 2: x_j = j / 2, amax 15.5,
  // d = 15.5 / 127 = 0.122047 (F16 0x2fd0), q_j = roundf(j / 2 * 127 / 15.5).
  for (int j = 0; j < kQK; ++j) x[2 * kQK + j] = 0.5f * j;
  BlockQ8_0 y[3];
  quantize_row(ElementType::kQ8_0, x.data(), y, 3 * kQK);

  EXPECT_EQ(y[0].d, 0x3c00);
  const int8_t q0[8] = {127, 1, -3, 3, -127, 2, 0, 0};
  for (int j = 0; j < 8; ++j) EXPECT_EQ(y[0].qs[j], q0[j]) << j;
  for (int j = 8; j < kQK; ++j) EXPECT_EQ(y[0].qs[j], 0) << j;
  EXPECT_EQ(y[1].d, 0);
  for (int j = 0; j < kQK; ++j) EXPECT_EQ(y[1].qs[j], 0) << j;
  EXPECT_EQ(y[2].d, 0x2fd0);
  const int8_t q2[kQK] = {0,  4,  8,  12, 16, 20, 25, 29, 33, 37,  41,  45,  49,  53,  57,  61,
                          66, 70, 74, 78, 82, 86, 90, 94, 98, 102, 107, 111, 115, 119, 123, 127};
  for (int j = 0; j < kQK; ++j) EXPECT_EQ(y[2].qs[j], q2[j]) << j;
}

TEST(QuantizeQ4_0, MatchesTheReferenceFormula) {
  // x_j = j - 8: the signed extreme is 23, so d = 23 / -8 = -2.875 (F16
  // 0xc1c0) and q_j = min(15, trunc(x_j / d + 8.5)): x = 23 -> 0,
  // x = 0 -> 8, x = -8 -> 11. Byte j holds q_j | q_{j+16} << 4.
  std::vector<float> x(kQK);
  for (int j = 0; j < kQK; ++j) x[j] = static_cast<float>(j - 8);
  BlockQ4_0 y;
  quantize_row(ElementType::kQ4_0, x.data(), &y, kQK);
  EXPECT_EQ(y.d, 0xc1c0);
  const uint8_t qs[16] = {0x5b, 0x5a, 0x5a, 0x4a, 0x49, 0x39, 0x39, 0x38,
                          0x28, 0x28, 0x27, 0x17, 0x17, 0x16, 0x06, 0x06};
  for (int j = 0; j < 16; ++j) EXPECT_EQ(y.qs[j], qs[j]) << j;

  std::vector<float> back(kQK);
  dequantize_row(ElementType::kQ4_0, &y, back.data(), kQK);
  EXPECT_EQ(back[31], 23.0f);  // the extreme is exact: (0 - 8) * -2.875
  EXPECT_EQ(back[8], 0.0f);
}

TEST(QuantizeQ8_K, ExtremeMapsToMinus127AndBsumsAddUp) {
  std::vector<float> x = random_floats(2 * kQK_K, 7);
  x[10] = 50.0f;  // the extreme of block 0, positive
  BlockQ8_K y[2];
  quantize_row(ElementType::kQ8_K, x.data(), y, 2 * kQK_K);
  EXPECT_EQ(y[0].qs[10], -127);
  EXPECT_FLOAT_EQ(y[0].d, 50.0f / -127.0f);
  for (const auto& b : y) {
    for (int g = 0; g < 16; ++g) {
      int sum = 0;
      for (int l = 0; l < 16; ++l) sum += b.qs[16 * g + l];
      EXPECT_EQ(b.bsums[g], sum);
    }
  }
}

// The relative RMS error a reference round trip of Gaussian data (with
// outliers) stays under, per type.
struct RoundTripBound {
  ElementType type;
  double max_relative_rms;
};

class QuantizeRoundTrip : public ::testing::TestWithParam<RoundTripBound> {};

TEST_P(QuantizeRoundTrip, ErrorWithinTheTypeBound) {
  const auto [type, bound] = GetParam();
  const int64_t n = 8 * kQK_K;
  const std::vector<float> x = random_floats(n, 42);
  std::vector<uint8_t> q(*row_bytes(type, n));
  quantize_row(type, x.data(), q.data(), n);
  std::vector<float> back(n);
  dequantize_row(type, q.data(), back.data(), n);
  double err = 0, ref = 0;
  for (int64_t i = 0; i < n; ++i) {
    err += (back[i] - x[i]) * (back[i] - x[i]);
    ref += x[i] * x[i];
  }
  EXPECT_LT(std::sqrt(err / ref), bound) << element_type_name(type);
}

INSTANTIATE_TEST_SUITE_P(
    AllTypes, QuantizeRoundTrip,
    ::testing::Values(
        RoundTripBound{ElementType::kF32, 1e-9}, RoundTripBound{ElementType::kF16, 5e-4},
        RoundTripBound{ElementType::kBF16, 4e-3}, RoundTripBound{ElementType::kQ8_0, 8e-3},
        RoundTripBound{ElementType::kQ8_1, 8e-3}, RoundTripBound{ElementType::kQ8_K, 2e-2},
        RoundTripBound{ElementType::kQ6_K, 3e-2}, RoundTripBound{ElementType::kQ5_0, 6e-2},
        RoundTripBound{ElementType::kQ5_1, 6e-2}, RoundTripBound{ElementType::kQ5_K, 5e-2},
        RoundTripBound{ElementType::kQ4_0, 0.12}, RoundTripBound{ElementType::kQ4_1, 0.12},
        RoundTripBound{ElementType::kQ4_K, 0.1}, RoundTripBound{ElementType::kQ3_K, 0.25},
        RoundTripBound{ElementType::kQ2_K, 0.45}, RoundTripBound{ElementType::kIQ4_NL, 0.12},
        RoundTripBound{ElementType::kIQ4_XS, 0.12}, RoundTripBound{ElementType::kMXFP4, 0.2}),
    [](const auto& info) { return std::string(element_type_name(info.param.type)); });

TEST(Quantize, AllZeroBlocksStayZero) {
  for (ElementType type : testing::matmul_types()) {
    const int64_t n = kQK_K;
    std::vector<float> x(n, 0.0f), back(n, 1.0f);
    std::vector<uint8_t> q(*row_bytes(type, n));
    quantize_row(type, x.data(), q.data(), n);
    dequantize_row(type, q.data(), back.data(), n);
    for (int64_t i = 0; i < n; ++i) ASSERT_EQ(back[i], 0.0f) << element_type_name(type) << " " << i;
  }
}

}  // namespace
}  // namespace ingot::kernels
