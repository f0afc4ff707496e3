#include "gguf/metadata.h"

#include <concepts>
#include <string>
#include <type_traits>
#include <utility>

namespace ingot::gguf {
namespace {

template <typename T>
constexpr std::string_view wanted_name() {
  if constexpr (std::is_same_v<T, bool>)
    return "bool";
  else if constexpr (std::is_same_v<T, uint8_t>)
    return "uint8";
  else if constexpr (std::is_same_v<T, int8_t>)
    return "int8";
  else if constexpr (std::is_same_v<T, uint16_t>)
    return "uint16";
  else if constexpr (std::is_same_v<T, int16_t>)
    return "int16";
  else if constexpr (std::is_same_v<T, uint32_t>)
    return "uint32";
  else if constexpr (std::is_same_v<T, int32_t>)
    return "int32";
  else if constexpr (std::is_same_v<T, uint64_t>)
    return "uint64";
  else if constexpr (std::is_same_v<T, int64_t>)
    return "int64";
  else if constexpr (std::is_same_v<T, float>)
    return "float32";
  else if constexpr (std::is_same_v<T, double>)
    return "float64";
  else if constexpr (std::is_same_v<T, std::vector<std::string_view>>)
    return "array of string";
  else if constexpr (std::is_same_v<T, std::vector<float>>)
    return "array of float32";
  else if constexpr (std::is_same_v<T, std::vector<int32_t>>)
    return "array of int32";
  else if constexpr (std::is_same_v<T, std::vector<uint32_t>>)
    return "array of uint32";
  else
    return "string";
}

template <typename T>
concept Integer = std::integral<T> && !std::same_as<T, bool>;

std::string stored_name(const Value& value) {
  if (value.type != ValueType::kArray) return std::string(value_type_name(value.type));
  const auto& array = std::get<std::shared_ptr<const Array>>(value.storage);
  return "array of " + std::string(value_type_name(array->element_type));
}

// Converts one scalar to T, or nullopt when the stored type does not
// convert or the value does not fit.
template <typename T>
std::optional<T> convert_scalar(const Value& value) {
  return std::visit(
      [](const auto& stored) -> std::optional<T> {
        using S = std::decay_t<decltype(stored)>;
        if constexpr (Integer<T> && Integer<S>) {
          if (!std::in_range<T>(stored)) return std::nullopt;
          return static_cast<T>(stored);
        } else if constexpr (std::floating_point<T> && (std::floating_point<S> || Integer<S>)) {
          return static_cast<T>(stored);
        } else if constexpr (std::same_as<T, bool> && std::same_as<S, bool>) {
          return stored;
        } else if constexpr (Integer<T> && std::same_as<S, bool>) {
          return static_cast<T>(stored);  // per-layer flags stored as a bool array
        } else {
          return std::nullopt;
        }
      },
      value.storage);
}

template <typename Element>
std::optional<std::vector<Element>> convert_array(const Value& value) {
  if (value.type != ValueType::kArray) return std::nullopt;
  const auto& array = std::get<std::shared_ptr<const Array>>(value.storage);
  std::vector<Element> out;
  out.reserve(array->items.size());
  for (const Value& item : array->items) {
    std::optional<Element> converted;
    if constexpr (std::same_as<Element, std::string_view>) {
      if (item.type == ValueType::kString) converted = std::get<std::string_view>(item.storage);
    } else {
      converted = convert_scalar<Element>(item);
    }
    if (!converted) return std::nullopt;
    out.push_back(*converted);
  }
  return out;
}

template <typename T>
std::optional<T> convert(const Value& value) {
  if constexpr (std::same_as<T, std::string> || std::same_as<T, std::string_view>) {
    if (value.type != ValueType::kString) return std::nullopt;
    return T(std::get<std::string_view>(value.storage));
  } else if constexpr (std::same_as<T, std::vector<std::string_view>>) {
    return convert_array<std::string_view>(value);
  } else if constexpr (std::same_as<T, std::vector<float>>) {
    return convert_array<float>(value);
  } else if constexpr (std::same_as<T, std::vector<int32_t>>) {
    return convert_array<int32_t>(value);
  } else if constexpr (std::same_as<T, std::vector<uint32_t>>) {
    return convert_array<uint32_t>(value);
  } else {
    return convert_scalar<T>(value);
  }
}

}  // namespace

bool Metadata::add(std::string_view key, Value value) {
  if (index_.contains(key)) return false;
  index_.emplace(key, entries_.size());
  entries_.emplace_back(key, std::move(value));
  return true;
}

const Value* Metadata::find(std::string_view key) const {
  auto it = index_.find(key);
  return it == index_.end() ? nullptr : &entries_[it->second].second;
}

template <typename T>
Result<T> Metadata::get(std::string_view key) const {
  const Value* value = find(key);
  if (value == nullptr) return not_found("metadata key '" + std::string(key) + "' is missing");
  std::optional<T> converted = convert<T>(*value);
  if (!converted) {
    return invalid_format("metadata key '" + std::string(key) + "' holds " + stored_name(*value) +
                          " that does not convert to " + std::string(wanted_name<T>()));
  }
  return std::move(*converted);
}

std::string_view Metadata::architecture() const {
  const Value* value = find("general.architecture");
  if (value == nullptr || value->type != ValueType::kString) return {};
  return std::get<std::string_view>(value->storage);
}

std::string Metadata::arch_key(std::string_view suffix) const {
  std::string key(architecture());
  key += '.';
  key += suffix;
  return key;
}

template Result<bool> Metadata::get<bool>(std::string_view) const;
template Result<uint8_t> Metadata::get<uint8_t>(std::string_view) const;
template Result<int8_t> Metadata::get<int8_t>(std::string_view) const;
template Result<uint16_t> Metadata::get<uint16_t>(std::string_view) const;
template Result<int16_t> Metadata::get<int16_t>(std::string_view) const;
template Result<uint32_t> Metadata::get<uint32_t>(std::string_view) const;
template Result<int32_t> Metadata::get<int32_t>(std::string_view) const;
template Result<uint64_t> Metadata::get<uint64_t>(std::string_view) const;
template Result<int64_t> Metadata::get<int64_t>(std::string_view) const;
template Result<float> Metadata::get<float>(std::string_view) const;
template Result<double> Metadata::get<double>(std::string_view) const;
template Result<std::string> Metadata::get<std::string>(std::string_view) const;
template Result<std::string_view> Metadata::get<std::string_view>(std::string_view) const;
template Result<std::vector<std::string_view>> Metadata::get<std::vector<std::string_view>>(
    std::string_view) const;
template Result<std::vector<float>> Metadata::get<std::vector<float>>(std::string_view) const;
template Result<std::vector<int32_t>> Metadata::get<std::vector<int32_t>>(std::string_view) const;
template Result<std::vector<uint32_t>> Metadata::get<std::vector<uint32_t>>(std::string_view) const;

}  // namespace ingot::gguf
