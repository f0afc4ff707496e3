#pragma once
// Splitting one fuzzer input into the pieces a target needs, the same way
// under libFuzzer and under the corpus replay that `make test` runs.

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace ingot::fuzz {

class FuzzInput {
 public:
  FuzzInput(const uint8_t* data, size_t size)
      : rest_(reinterpret_cast<const char*>(data), size) {}

  // One byte as a choice among `n` (0 when the input is used up).
  size_t choice(size_t n) {
    if (rest_.empty() || n == 0) return 0;
    auto byte = static_cast<unsigned char>(rest_.front());
    rest_.remove_prefix(1);
    return byte % n;
  }
  bool flag() { return choice(2) == 1; }
  std::string_view rest() const { return rest_; }

 private:
  std::string_view rest_;
};

}  // namespace ingot::fuzz
