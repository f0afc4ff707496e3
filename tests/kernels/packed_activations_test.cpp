// PackedActivations: packing piece by piece against packing whole rows.

#include "kernels/packed_activations.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <tuple>

#include "kernel_test_data.h"
#include "kernels/dispatch.h"
#include "kernels/interleave.h"

namespace ingot::kernels {
namespace {

using testing::random_floats;

// Packing piece by piece, the pieces taken last to first, gives the bytes
// that packing whole rows does: the packed rows, the block sums and the
// interleaved rows (on every path the CPU has, for each packed type).
TEST(PackedActivations, PiecesMatchWholeRows) {
  ThreadPool pool(1);
  const std::tuple<ElementType, int64_t> cases[] = {
      {ElementType::kQ4_0, 4864}, {ElementType::kQ4_0, 96},  {ElementType::kQ8_0, 1056},
      {ElementType::kQ4_K, 1280}, {ElementType::kQ4_1, 544}, {ElementType::kF16, 1000},
      {ElementType::kF32, 513},   {ElementType::kQ6_K, 256}};
  for (Isa isa : kAllIsas) {
    if (!isa_available(isa)) continue;
    set_isa_override(isa);
    for (const auto& [type, cols] : cases) {
      const int64_t tokens = 3;
      const auto input = random_floats(tokens * cols, 70 + cols);
      PackedActivations whole, pieces;
      whole.pack(input.data(), tokens, cols, type, pool);
      pieces.prepare(tokens, cols, type);
      for (int64_t t = tokens; t-- > 0;) {
        for (int64_t p = pieces.pieces_per_row(); p-- > 0;) {
          pieces.pack_piece(input.data() + t * cols, t, p);
        }
      }
      const std::string where = std::string(isa_name(isa)) + " " +
                                std::string(element_type_name(type)) + " " + std::to_string(cols);
      const size_t bytes = *row_bytes(whole.packed_type(), cols);
      for (int64_t t = 0; t < tokens; ++t) {
        EXPECT_EQ(0, std::memcmp(whole.row(t), pieces.row(t), bytes)) << where;
        if (whole.packed_type() == ElementType::kQ8_0 ||
            whole.packed_type() == ElementType::kQ8_1) {
          EXPECT_EQ(0, std::memcmp(whole.block_sums(t), pieces.block_sums(t), cols / 32 * 2))
              << where;
        }
        ASSERT_EQ(whole.interleaved_row(t) == nullptr, pieces.interleaved_row(t) == nullptr);
        if (whole.interleaved_row(t) != nullptr) {
          EXPECT_EQ(0, std::memcmp(whole.interleaved_row(t), pieces.interleaved_row(t),
                                   interleaved_groups(cols) * kActivationGroupBytes))
              << where;
        }
      }
    }
    set_isa_override(std::nullopt);
  }
}

}  // namespace
}  // namespace ingot::kernels
