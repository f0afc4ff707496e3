#include "kernels/half.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

namespace ingot::kernels {
namespace {

bool is_f16_nan(uint16_t h) {
  return (h & 0x7c00) == 0x7c00 && (h & 0x3ff) != 0;
}

TEST(Half, KnownValues) {
  EXPECT_EQ(f16_to_f32(0x3c00), 1.0f);
  EXPECT_EQ(f16_to_f32(0xc000), -2.0f);
  EXPECT_EQ(f16_to_f32(0x7bff), 65504.0f);
  EXPECT_EQ(f16_to_f32(0x0001), 0x1p-24f);         // smallest subnormal
  EXPECT_EQ(f16_to_f32(0x03ff), 1023 * 0x1p-24f);  // largest subnormal
  EXPECT_EQ(f16_to_f32(0x0400), 0x1p-14f);         // smallest normal
  EXPECT_TRUE(std::signbit(f16_to_f32(0x8000)));
  EXPECT_EQ(f16_to_f32(0x7c00), std::numeric_limits<float>::infinity());
  EXPECT_EQ(f16_to_f32(0xfc00), -std::numeric_limits<float>::infinity());
  EXPECT_TRUE(std::isnan(f16_to_f32(0x7e00)));
  EXPECT_TRUE(std::isnan(f16_to_f32(0x7c01)));  // signalling NaN stays NaN
}

TEST(Half, EveryF16SurvivesARoundTrip) {
  for (uint32_t h = 0; h <= 0xffff; ++h) {
    const auto bits = static_cast<uint16_t>(h);
    if (is_f16_nan(bits)) {
      EXPECT_TRUE(is_f16_nan(f32_to_f16(f16_to_f32(bits)))) << std::hex << h;
    } else {
      EXPECT_EQ(f32_to_f16(f16_to_f32(bits)), bits) << std::hex << h;
    }
  }
}

// Between two neighbouring F16 values: ties go to the even one, anything
// off the midpoint to the nearer one. Covers subnormals and the top range.
TEST(Half, RoundsToNearestEven) {
  for (uint32_t h = 0; h < 0x7bff; ++h) {
    const float lo = f16_to_f32(static_cast<uint16_t>(h));
    const float hi = f16_to_f32(static_cast<uint16_t>(h + 1));
    const float mid = lo + (hi - lo) / 2;  // exact in F32
    const uint16_t even = (h % 2 == 0) ? static_cast<uint16_t>(h) : static_cast<uint16_t>(h + 1);
    ASSERT_EQ(f32_to_f16(mid), even) << std::hex << h;
    ASSERT_EQ(f32_to_f16(std::nextafter(mid, 0.0f)), h) << std::hex << h;
    ASSERT_EQ(f32_to_f16(std::nextafter(mid, 1e9f)), h + 1) << std::hex << h;
    ASSERT_EQ(f32_to_f16(-mid), even | 0x8000) << std::hex << h;
  }
}

TEST(Half, OverflowUnderflowAndSpecials) {
  EXPECT_EQ(f32_to_f16(65519.0f), 0x7bff);  // below the midpoint to 2^16
  EXPECT_EQ(f32_to_f16(65520.0f), 0x7c00);  // the midpoint rounds to even: inf
  EXPECT_EQ(f32_to_f16(1e10f), 0x7c00);
  EXPECT_EQ(f32_to_f16(-1e10f), 0xfc00);
  EXPECT_EQ(f32_to_f16(std::numeric_limits<float>::infinity()), 0x7c00);
  EXPECT_EQ(f32_to_f16(0x1p-25f), 0x0000);  // half the smallest subnormal: tie to 0
  EXPECT_EQ(f32_to_f16(0x1.8p-25f), 0x0001);
  EXPECT_EQ(f32_to_f16(1e-30f), 0x0000);
  EXPECT_EQ(f32_to_f16(-1e-30f), 0x8000);
  EXPECT_EQ(f32_to_f16(std::numeric_limits<float>::denorm_min()), 0x0000);
  EXPECT_TRUE(is_f16_nan(f32_to_f16(std::numeric_limits<float>::quiet_NaN())));
  EXPECT_TRUE(is_f16_nan(f32_to_f16(std::bit_cast<float>(0x7f800001u))));  // low payload
}

TEST(Bf16, RoundTripsAndRounding) {
  EXPECT_EQ(f32_to_bf16(1.0f), 0x3f80);
  EXPECT_EQ(bf16_to_f32(0x3f80), 1.0f);
  EXPECT_EQ(bf16_to_f32(0xc040), -3.0f);
  // 1 + 2^-8 is the midpoint between 1 and 1 + 2^-7: ties to even (1).
  EXPECT_EQ(f32_to_bf16(1.0f + 0x1p-8f), 0x3f80);
  EXPECT_EQ(f32_to_bf16(1.0f + 0x1p-8f + 0x1p-20f), 0x3f81);
  EXPECT_EQ(f32_to_bf16(1.0f + 3 * 0x1p-8f), 0x3f82);  // tie between 0x3f81 and 0x3f82
  EXPECT_EQ(f32_to_bf16(std::numeric_limits<float>::infinity()), 0x7f80);
  const uint16_t nan = f32_to_bf16(std::bit_cast<float>(0x7f800001u));
  EXPECT_TRUE(std::isnan(bf16_to_f32(nan)));
  for (uint32_t h = 0; h <= 0xffff; ++h) {
    const float f = bf16_to_f32(static_cast<uint16_t>(h));
    if (std::isnan(f)) continue;
    ASSERT_EQ(f32_to_bf16(f), h);
  }
}

}  // namespace
}  // namespace ingot::kernels
