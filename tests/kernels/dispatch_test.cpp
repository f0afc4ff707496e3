#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "kernel_test_data.h"
#include "kernels/kernel_table.h"

namespace ingot::kernels {
namespace {

using testing::random_floats;

TEST(Dispatch, OverrideSelectsThePathAndResets) {
  set_isa_override(Isa::kScalar);
  EXPECT_EQ(active_isa(), Isa::kScalar);
  set_isa_override(std::nullopt);
  EXPECT_TRUE(isa_available(active_isa()));
}

TEST(Dispatch, ThePathInUseIsTheBestThisCpuRuns) {
  const Isa best = active_isa();
  EXPECT_EQ(&active_kernels(), kernel_table(best));
  for (Isa isa : kAllIsas) {
    EXPECT_EQ(kernel_table(isa) != nullptr, isa_available(isa)) << isa_name(isa);
  }
  EXPECT_FALSE(select_isa("no-such-path").ok());
  EXPECT_EQ(active_isa(), best);
}

// Every entry of every table holds a kernel: a path falls back to a
// simpler one for what it lacks.
TEST(Dispatch, EveryTableIsComplete) {
  for (Isa isa : kAllIsas) {
    const KernelTable* path = kernel_table(isa);
    if (path == nullptr) continue;
    for (ElementType type : testing::matmul_types()) {
      EXPECT_NE(path->tile_kernel(type), nullptr)
          << isa_name(isa) << " " << element_type_name(type);
    }
    EXPECT_NE(path->rms_norm, nullptr);
    EXPECT_NE(path->silu, nullptr);
    EXPECT_NE(path->gelu, nullptr);
    EXPECT_NE(path->swiglu, nullptr);
    EXPECT_NE(path->softmax, nullptr);
    EXPECT_NE(path->sum_exp, nullptr);
    EXPECT_NE(path->exp_terms, nullptr);
    EXPECT_NE(path->attention_accumulate, nullptr);
    EXPECT_NE(path->delta_rule_step, nullptr);
    EXPECT_NE(path->delta_rule_chunk, nullptr);
    EXPECT_NE(path->add_low_rank, nullptr);
    EXPECT_NE(path->widen_keys(ElementType::kQ8_0), nullptr);
    EXPECT_NE(path->widen_values(ElementType::kQ4_0), nullptr);
  }
}

// Every supported weight type has its own kernel on every SIMD path (a
// missing entry would silently fall back and still pass the accuracy tests).
TEST(Dispatch, SimdPathsCoverEveryWeightType) {
  const KernelTable& scalar = *kernel_table(Isa::kScalar);
  for (Isa isa : kAllIsas) {
    const KernelTable* path = kernel_table(isa);
    if (isa == Isa::kScalar || path == nullptr) continue;
    for (ElementType type : testing::matmul_types()) {
      if (type == ElementType::kQ8_1 || type == ElementType::kQ8_K) continue;  // activation formats
      EXPECT_NE(path->tile_kernel(type), scalar.tile_kernel(type))
          << isa_name(isa) << " " << element_type_name(type);
    }
  }
}

// On AVX2 without VNNI, Q8_0 is interleaved only where rows fill whole
// groups of 512 columns; the other types and the VNNI paths interleave
// every matrix of their types.
TEST(Dispatch, Avx2InterleavesQ8_0OnlyInWholeGroups) {
  const KernelTable* avx2 = kernel_table(Isa::kAvx2);
  if (avx2 == nullptr) GTEST_SKIP() << "avx2 is not available on this CPU";
  EXPECT_TRUE(avx2->interleaves(ElementType::kQ8_0, 2048));
  EXPECT_FALSE(avx2->interleaves(ElementType::kQ8_0, 896));
  EXPECT_TRUE(avx2->interleaves(ElementType::kQ4_0, 896));
  for (Isa isa : {Isa::kAvxVnni, Isa::kAvx512}) {
    if (const KernelTable* vnni = kernel_table(isa)) {
      EXPECT_TRUE(vnni->interleaves(ElementType::kQ8_0, 896)) << isa_name(isa);
    }
  }
}

// The activations of the 32-element block types, the super-block types
// and F16 are packed on every token by every matmul: each SIMD path has
// its own packers for them.
TEST(Dispatch, SimdPathsPackTheCommonOperands) {
  const KernelTable& scalar = *kernel_table(Isa::kScalar);
  for (Isa isa : kAllIsas) {
    const KernelTable* path = kernel_table(isa);
    if (isa == Isa::kScalar || path == nullptr) continue;
    for (ElementType type : {ElementType::kQ8_0, ElementType::kQ8_1, ElementType::kF16}) {
      EXPECT_NE(path->pack_row(type), scalar.pack_row(type))
          << isa_name(isa) << " " << element_type_name(type);
    }
    // The super-block types' activations.
    EXPECT_NE(path->pack_row(ElementType::kQ8_K), scalar.pack_row(ElementType::kQ8_K))
        << isa_name(isa);
  }
}

// Every decode step runs the norms and the activations over whole rows,
// Qwen3.5's delta rule over its state and sampling's exp sums over the
// vocabulary: each SIMD path has its own.
TEST(Dispatch, SimdPathsHaveTheirOwnFloatOps) {
  const KernelTable& scalar = *kernel_table(Isa::kScalar);
  for (Isa isa : kAllIsas) {
    const KernelTable* path = kernel_table(isa);
    if (isa == Isa::kScalar || path == nullptr) continue;
    EXPECT_NE(path->rms_norm, scalar.rms_norm) << isa_name(isa);
    EXPECT_NE(path->silu, scalar.silu) << isa_name(isa);
    EXPECT_NE(path->gelu, scalar.gelu) << isa_name(isa);
    EXPECT_NE(path->swiglu, scalar.swiglu) << isa_name(isa);
    EXPECT_NE(path->softmax, scalar.softmax) << isa_name(isa);
    EXPECT_NE(path->sum_exp, scalar.sum_exp) << isa_name(isa);
    EXPECT_NE(path->exp_terms, scalar.exp_terms) << isa_name(isa);
    EXPECT_NE(path->delta_rule_step, scalar.delta_rule_step) << isa_name(isa);
    EXPECT_NE(path->delta_rule_chunk, scalar.delta_rule_chunk) << isa_name(isa);
  }
}

// Attention over a quantized KV cache widens every tile it reads: each
// SIMD path has its own wideners.
TEST(Dispatch, SimdPathsWidenQuantizedCaches) {
  const KernelTable& scalar = *kernel_table(Isa::kScalar);
  for (Isa isa : kAllIsas) {
    const KernelTable* path = kernel_table(isa);
    if (isa == Isa::kScalar || path == nullptr) continue;
    for (ElementType type : {ElementType::kQ8_0, ElementType::kQ4_0}) {
      EXPECT_NE(path->widen_keys(type), scalar.widen_keys(type))
          << isa_name(isa) << " " << element_type_name(type);
      EXPECT_NE(path->widen_values(type), scalar.widen_values(type))
          << isa_name(isa) << " " << element_type_name(type);
    }
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
        kernel_table(Isa::kScalar)->pack_row(type)(x.data(), want.data(), n);
        kernel_table(isa)->pack_row(type)(x.data(), got.data(), n);
        EXPECT_EQ(std::memcmp(want.data(), got.data(), bytes), 0)
            << isa_name(isa) << " " << element_type_name(type) << " n=" << n;
      }
    }
  }
}

// Q8_K maps its signed extreme to -127: where +amax and -amax both occur
// the first decides the sign of d; an all-zero block packs to zeros.
TEST(Dispatch, Q8KPackersTakeTheFirstExtremeAndZeroBlocks) {
  std::vector<float> x = random_floats(3 * 256, 9);
  for (int64_t i = 0; i < 256; ++i) x[i] = 0.0f;
  x[256 + 5] = -7.0f;  // block 1: -7 comes first
  x[256 + 200] = 7.0f;
  x[512 + 3] = 7.0f;  // block 2: +7 comes first
  x[512 + 100] = -7.0f;
  const size_t bytes = *row_bytes(ElementType::kQ8_K, 3 * 256);
  std::vector<uint8_t> want(bytes);
  kernel_table(Isa::kScalar)->pack_row(ElementType::kQ8_K)(x.data(), want.data(), 3 * 256);
  for (Isa isa : kAllIsas) {
    if (!isa_available(isa)) continue;
    std::vector<uint8_t> got(bytes, 0xee);
    kernel_table(isa)->pack_row(ElementType::kQ8_K)(x.data(), got.data(), 3 * 256);
    EXPECT_EQ(want, got) << isa_name(isa);
  }
}

// Odd lengths for the float packers (no block structure).
TEST(Dispatch, FloatPackersHandleOddLengths) {
  for (Isa isa : kAllIsas) {
    if (!isa_available(isa)) continue;
    for (int64_t n : {1, 15, 17, 33}) {
      const std::vector<float> x = random_floats(n, 5);
      std::vector<uint16_t> want(n + 1, 0xabcd), got(n + 1, 0xabcd);
      kernel_table(Isa::kScalar)->pack_row(ElementType::kF16)(x.data(), want.data(), n);
      kernel_table(isa)->pack_row(ElementType::kF16)(x.data(), got.data(), n);
      EXPECT_EQ(want, got) << isa_name(isa) << " n=" << n;  // including the untouched guard
    }
  }
}

}  // namespace
}  // namespace ingot::kernels
