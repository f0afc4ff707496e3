#pragma once
// A bounds-checked little-endian cursor over a byte span. Every read checks
// the bytes left first, so a length field can never walk past the end.

#include <cstdint>
#include <cstring>
#include <optional>
#include <span>
#include <string_view>
#include <type_traits>

namespace ingot::gguf {

class ByteReader {
 public:
  explicit ByteReader(std::span<const uint8_t> bytes) : bytes_(bytes) {}

  size_t position() const { return position_; }
  size_t remaining() const { return bytes_.size() - position_; }

  // nullopt when fewer than sizeof(T) bytes are left. GGUF is little-endian
  // and so is every host ingot builds for (x86-64), hence the plain copy.
  template <typename T>
  requires std::is_trivially_copyable_v<T> std::optional<T> read() {
    if (remaining() < sizeof(T)) return std::nullopt;
    T value;
    std::memcpy(&value, bytes_.data() + position_, sizeof(T));
    position_ += sizeof(T);
    return value;
  }

  // A view of the next `length` bytes, or nullopt when they are not there.
  std::optional<std::string_view> read_bytes(uint64_t length) {
    if (length > remaining()) return std::nullopt;
    std::string_view view(reinterpret_cast<const char*>(bytes_.data() + position_),
                          static_cast<size_t>(length));
    position_ += static_cast<size_t>(length);
    return view;
  }

 private:
  std::span<const uint8_t> bytes_;
  size_t position_ = 0;
};

}  // namespace ingot::gguf
