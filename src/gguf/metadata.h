#pragma once
// Typed access to GGUF metadata. Keys keep file order; lookups by key are
// hashed. get<T> converts between integer widths when the value fits, so a
// file that stores block_count as uint64 or int32 reads the same.

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "gguf/value.h"
#include "util/status.h"

namespace ingot::gguf {

class Metadata {
 public:
  // Adds a key; false when the key is already present.
  bool add(std::string_view key, Value value);

  bool has(std::string_view key) const { return find(key) != nullptr; }
  const Value* find(std::string_view key) const;
  const std::vector<std::pair<std::string_view, Value>>& entries() const { return entries_; }

  // Supported T: bool, uint8..uint64, int8..int64, float, double,
  // std::string, std::string_view, std::vector<std::string_view>,
  // std::vector<float>, std::vector<int32_t>, std::vector<uint32_t>.
  // Errors name the key and the stored type.
  template <typename T>
  Result<T> get(std::string_view key) const;

  template <typename T>
  T get_or(std::string_view key, T fallback) const {
    if (!has(key)) return fallback;
    auto result = get<T>(key);
    return result.ok() ? std::move(result).value() : fallback;
  }

  // general.architecture, or "" when absent.
  std::string_view architecture() const;
  // "<architecture>.<suffix>", e.g. arch_key("block_count") -> "qwen2.block_count".
  std::string arch_key(std::string_view suffix) const;

 private:
  std::vector<std::pair<std::string_view, Value>> entries_;
  std::unordered_map<std::string_view, size_t> index_;
};

}  // namespace ingot::gguf
