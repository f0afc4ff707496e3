#include "kernels/element_type.h"

#include <array>
#include <limits>

namespace ingot::kernels {
namespace {

using T = ElementType;

// Sizes follow the block structs of the GGUF format: for example Q4_0 is
// one f16 scale plus 32 4-bit values (2 + 16 bytes), Q4_K is a 256-element
// super-block of 2 f16 + 12 bytes of 6-bit scales + 128 bytes of nibbles.
constexpr std::array kTypes = {
    ElementTypeInfo{T::kF32, "f32", 1, 4, true},
    ElementTypeInfo{T::kF16, "f16", 1, 2, true},
    ElementTypeInfo{T::kQ4_0, "q4_0", 32, 18, true},
    ElementTypeInfo{T::kQ4_1, "q4_1", 32, 20, true},
    ElementTypeInfo{T::kQ5_0, "q5_0", 32, 22, true},
    ElementTypeInfo{T::kQ5_1, "q5_1", 32, 24, true},
    ElementTypeInfo{T::kQ8_0, "q8_0", 32, 34, true},
    ElementTypeInfo{T::kQ8_1, "q8_1", 32, 36, true},
    ElementTypeInfo{T::kQ2_K, "q2_K", 256, 84, true},
    ElementTypeInfo{T::kQ3_K, "q3_K", 256, 110, true},
    ElementTypeInfo{T::kQ4_K, "q4_K", 256, 144, true},
    ElementTypeInfo{T::kQ5_K, "q5_K", 256, 176, true},
    ElementTypeInfo{T::kQ6_K, "q6_K", 256, 210, true},
    ElementTypeInfo{T::kQ8_K, "q8_K", 256, 292, true},
    ElementTypeInfo{T::kIQ2_XXS, "iq2_xxs", 256, 66, false},
    ElementTypeInfo{T::kIQ2_XS, "iq2_xs", 256, 74, false},
    ElementTypeInfo{T::kIQ3_XXS, "iq3_xxs", 256, 98, false},
    ElementTypeInfo{T::kIQ1_S, "iq1_s", 256, 50, false},
    ElementTypeInfo{T::kIQ4_NL, "iq4_nl", 32, 18, true},
    ElementTypeInfo{T::kIQ3_S, "iq3_s", 256, 110, false},
    ElementTypeInfo{T::kIQ2_S, "iq2_s", 256, 82, false},
    ElementTypeInfo{T::kIQ4_XS, "iq4_xs", 256, 136, true},
    ElementTypeInfo{T::kI8, "i8", 1, 1, false},
    ElementTypeInfo{T::kI16, "i16", 1, 2, false},
    ElementTypeInfo{T::kI32, "i32", 1, 4, false},
    ElementTypeInfo{T::kI64, "i64", 1, 8, false},
    ElementTypeInfo{T::kF64, "f64", 1, 8, false},
    ElementTypeInfo{T::kIQ1_M, "iq1_m", 256, 56, false},
    ElementTypeInfo{T::kBF16, "bf16", 1, 2, true},
    ElementTypeInfo{T::kTQ1_0, "tq1_0", 256, 54, false},
    ElementTypeInfo{T::kTQ2_0, "tq2_0", 256, 66, false},
    ElementTypeInfo{T::kMXFP4, "mxfp4", 32, 17, true},
};

}  // namespace

std::optional<ElementType> element_type_from_id(uint32_t id) {
  for (const auto& info : kTypes) {
    if (static_cast<uint32_t>(info.type) == id) return info.type;
  }
  return std::nullopt;
}

const ElementTypeInfo& element_type_info(ElementType type) {
  for (const auto& info : kTypes) {
    if (info.type == type) return info;
  }
  // Every enumerator is in the table (tested), so this is unreachable.
  return kTypes[0];
}

std::optional<size_t> row_bytes(ElementType type, int64_t n) {
  const auto& info = element_type_info(type);
  if (n < 0 || n % info.block_size != 0) return std::nullopt;
  auto blocks = static_cast<size_t>(n / info.block_size);
  if (blocks > std::numeric_limits<size_t>::max() / info.bytes_per_block) return std::nullopt;
  return blocks * info.bytes_per_block;
}

}  // namespace ingot::kernels
