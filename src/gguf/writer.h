#pragma once
// Writes GGUF v3 files: metadata of every value type (arrays of strings and
// nested arrays included) and tensors placed at the file's alignment
// (general.alignment when set, 32 otherwise). Tensor bytes can be given up
// front or produced at write time by a filler, so a multi-gigabyte model is
// written without holding it in memory.

#include <cstdint>
#include <deque>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "gguf/value.h"
#include "kernels/element_type.h"
#include "util/status.h"

namespace ingot::gguf {

class GgufWriter {
 public:
  // Fills a tensor's bytes (exactly its size) when the file is written.
  using Filler = std::function<void(std::span<uint8_t> out)>;

  // Sets a key, replacing an earlier value in place (file order is the
  // order of first setting). Strings are copied.
  void set(std::string_view key, const Value& value);
  void set_string(std::string_view key, std::string_view text);
  void set_strings(std::string_view key, std::span<const std::string> texts);
  void set_strings(std::string_view key, std::span<const std::string_view> texts);
  void set_bool(std::string_view key, bool value) { set(key, Value{ValueType::kBool, value}); }
  void set_u32(std::string_view key, uint32_t value) { set(key, Value{ValueType::kUint32, value}); }
  void set_i32(std::string_view key, int32_t value) { set(key, Value{ValueType::kInt32, value}); }
  void set_u64(std::string_view key, uint64_t value) { set(key, Value{ValueType::kUint64, value}); }
  void set_f32(std::string_view key, float value) { set(key, Value{ValueType::kFloat32, value}); }
  void set_f32s(std::string_view key, std::span<const float> values);
  void set_i32s(std::string_view key, std::span<const int32_t> values);
  void set_bools(std::string_view key, const std::vector<bool>& values);
  bool has(std::string_view key) const;

  // Adds a tensor; dims innermost first. Errors: a duplicate name, a bad
  // shape, or (for the bytes form) a byte count that does not match.
  Status add_tensor(std::string_view name, std::vector<int64_t> dims, kernels::ElementType type,
                    std::vector<uint8_t> bytes);
  Status add_tensor(std::string_view name, std::vector<int64_t> dims, kernels::ElementType type,
                    Filler filler);

  Status write(const std::string& path) const;
  Result<std::vector<uint8_t>> to_bytes() const;

 private:
  struct Tensor {
    std::string_view name;
    std::vector<int64_t> dims;
    kernels::ElementType type;
    size_t n_bytes;
    Filler filler;
  };

  std::string_view intern(std::string_view text);
  Value copy_value(const Value& value);
  Result<uint64_t> alignment() const;
  Result<std::vector<uint8_t>> header_bytes(uint64_t alignment) const;

  std::deque<std::string> strings_;  // a deque: interned views stay valid as it grows
  std::vector<std::pair<std::string_view, Value>> entries_;
  std::vector<Tensor> tensors_;
};

}  // namespace ingot::gguf
