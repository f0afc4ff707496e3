#pragma once
// GGUF metadata values. Strings are views into the mapped file, so parsing
// a 150k-token vocabulary copies no text; a Value never outlives its file.

#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>
#include <variant>
#include <vector>

namespace ingot::gguf {

// A GGUF file's first four bytes, "GGUF", read as a little-endian uint32.
inline constexpr uint32_t kGgufMagic = 0x46554747;

// The value type ids of the GGUF specification.
enum class ValueType : uint32_t {
  kUint8 = 0,
  kInt8 = 1,
  kUint16 = 2,
  kInt16 = 3,
  kUint32 = 4,
  kInt32 = 5,
  kFloat32 = 6,
  kBool = 7,
  kString = 8,
  kArray = 9,
  kUint64 = 10,
  kInt64 = 11,
  kFloat64 = 12,
};

std::string_view value_type_name(ValueType type);

// The type with GGUF id `id`, or nullopt for an id the specification lacks.
std::optional<ValueType> value_type_from_id(uint32_t id);

struct Array;

// One metadata value: a scalar, a string, or an array (whose elements may
// themselves be arrays).
struct Value {
  using Storage =
      std::variant<uint8_t, int8_t, uint16_t, int16_t, uint32_t, int32_t, float, bool,
                   std::string_view, std::shared_ptr<const Array>, uint64_t, int64_t, double>;
  ValueType type;
  Storage storage;
};

struct Array {
  ValueType element_type;
  std::vector<Value> items;
};

}  // namespace ingot::gguf
