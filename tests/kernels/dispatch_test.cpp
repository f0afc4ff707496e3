#include "kernels/dispatch.h"

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "kernel_test_data.h"

namespace ingot::kernels {
namespace {

using testing::random_floats;

const Isa kAllIsas[] = {Isa::kScalar, Isa::kAvx2, Isa::kAvx512};

TEST(Dispatch, OverrideSelectsThePathAndResets) {
  set_isa_override(Isa::kScalar);
  EXPECT_EQ(active_isa(), Isa::kScalar);
  set_isa_override(std::nullopt);
  EXPECT_TRUE(isa_available(active_isa()));
}

TEST(Dispatch, EveryPathHasAKernelForEveryType) {
  for (Isa isa : kAllIsas) {
    for (ElementType type : testing::matmul_types()) {
      EXPECT_NE(tile_kernel(isa, type), nullptr) << isa_name(isa) << " " << element_type_name(type);
    }
  }
}

// Every supported weight type has its own kernel on both SIMD paths (a
// missing entry would silently fall back and still pass the accuracy tests).
TEST(Dispatch, SimdPathsCoverEveryWeightType) {
  for (ElementType type : testing::matmul_types()) {
    if (type == ElementType::kQ8_1 || type == ElementType::kQ8_K) continue;  // activation formats
    EXPECT_NE(avx512_tile_kernel(type), nullptr) << element_type_name(type);
    EXPECT_NE(avx2_tile_kernel(type), nullptr) << element_type_name(type);
  }
}

// Kernels read packed activations written by whichever path is active, so
// every path's packer must write the scalar reference's exact bytes.
TEST(Dispatch, EveryPackerMatchesTheScalarBytes) {
  const ElementType packed_types[] = {ElementType::kF32,  ElementType::kF16,  ElementType::kBF16,
                                      ElementType::kQ8_0, ElementType::kQ8_1, ElementType::kQ8_K};
  for (Isa isa : kAllIsas) {
    if (!isa_available(isa)) continue;
    for (ElementType type : packed_types) {
      for (int64_t n : {256, 512, 2816}) {
        std::vector<float> x = random_floats(n, static_cast<uint32_t>(n));
        // Exact ties and an all-zero block exercise the rounding and zero paths.
        for (int i = 0; i < 32; ++i) x[i] = 0.0f;
        for (int i = 32; i < 64; ++i) x[i] = static_cast<float>(i % 7) - 3.0f;
        x[100] = 2.5f;
        x[101] = -3.5f;
        const size_t bytes = *row_bytes(type, n);
        std::vector<uint8_t> want(bytes), got(bytes, 0xee);
        pack_row_fn(Isa::kScalar, type)(x.data(), want.data(), n);
        pack_row_fn(isa, type)(x.data(), got.data(), n);
        EXPECT_EQ(std::memcmp(want.data(), got.data(), bytes), 0)
            << isa_name(isa) << " " << element_type_name(type) << " n=" << n;
      }
    }
  }
}

// Odd lengths for the float packers (no block structure).
TEST(Dispatch, FloatPackersHandleOddLengths) {
  for (Isa isa : kAllIsas) {
    if (!isa_available(isa)) continue;
    for (int64_t n : {1, 15, 17, 33}) {
      const std::vector<float> x = random_floats(n, 5);
      std::vector<uint16_t> want(n + 1, 0xabcd), got(n + 1, 0xabcd);
      pack_row_fn(Isa::kScalar, ElementType::kF16)(x.data(), want.data(), n);
      pack_row_fn(isa, ElementType::kF16)(x.data(), got.data(), n);
      EXPECT_EQ(want, got) << isa_name(isa) << " n=" << n;  // including the untouched guard
    }
  }
}

}  // namespace
}  // namespace ingot::kernels
