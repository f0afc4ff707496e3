#include "gguf/value.h"

namespace ingot::gguf {

std::string_view value_type_name(ValueType type) {
  switch (type) {
    case ValueType::kUint8:
      return "uint8";
    case ValueType::kInt8:
      return "int8";
    case ValueType::kUint16:
      return "uint16";
    case ValueType::kInt16:
      return "int16";
    case ValueType::kUint32:
      return "uint32";
    case ValueType::kInt32:
      return "int32";
    case ValueType::kFloat32:
      return "float32";
    case ValueType::kBool:
      return "bool";
    case ValueType::kString:
      return "string";
    case ValueType::kArray:
      return "array";
    case ValueType::kUint64:
      return "uint64";
    case ValueType::kInt64:
      return "int64";
    case ValueType::kFloat64:
      return "float64";
  }
  return "unknown";
}

std::optional<ValueType> value_type_from_id(uint32_t id) {
  if (id > static_cast<uint32_t>(ValueType::kFloat64)) return std::nullopt;
  return static_cast<ValueType>(id);
}

}  // namespace ingot::gguf
