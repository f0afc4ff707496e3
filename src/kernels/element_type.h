#pragma once
// The element types a tensor can hold, by the ids GGUF files use (ggml's
// type numbering), with their block geometry. Quantized types store a
// fixed number of elements (block_size) in a fixed number of bytes.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace ingot::kernels {

enum class ElementType : uint32_t {
  kF32 = 0,
  kF16 = 1,
  kQ4_0 = 2,
  kQ4_1 = 3,
  kQ5_0 = 6,
  kQ5_1 = 7,
  kQ8_0 = 8,
  kQ8_1 = 9,
  kQ2_K = 10,
  kQ3_K = 11,
  kQ4_K = 12,
  kQ5_K = 13,
  kQ6_K = 14,
  kQ8_K = 15,
  kIQ2_XXS = 16,
  kIQ2_XS = 17,
  kIQ3_XXS = 18,
  kIQ1_S = 19,
  kIQ4_NL = 20,
  kIQ3_S = 21,
  kIQ2_S = 22,
  kIQ4_XS = 23,
  kI8 = 24,
  kI16 = 25,
  kI32 = 26,
  kI64 = 27,
  kF64 = 28,
  kIQ1_M = 29,
  kBF16 = 30,
  kTQ1_0 = 34,
  kTQ2_0 = 35,
  kMXFP4 = 39,
};

struct ElementTypeInfo {
  ElementType type;
  std::string_view name;     // as llama.cpp prints it: "q4_K", "f16", ...
  int64_t block_size;        // elements per block (1 for plain types)
  size_t bytes_per_block;
  bool supported;            // ingot can dequantize and multiply it
};

// The type with GGUF id `id`, or nullopt for an id no file format defines.
std::optional<ElementType> element_type_from_id(uint32_t id);

const ElementTypeInfo& element_type_info(ElementType type);

inline std::string_view element_type_name(ElementType type) {
  return element_type_info(type).name;
}

// Bytes of a row of n elements, or nullopt when n is not a whole number of
// blocks or the product overflows.
std::optional<size_t> row_bytes(ElementType type, int64_t n);

}  // namespace ingot::kernels
