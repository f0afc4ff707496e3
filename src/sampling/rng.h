#pragma once
// A seeded random generator whose sequence is fixed by its seed alone, on
// every platform and standard library (std::uniform_real_distribution is
// not), so a request with a seed reproduces its text anywhere.

#include <cstdint>

namespace ingot::sampling {

class SeededRng {
 public:
  explicit SeededRng(uint64_t seed);

  uint64_t next_u64();
  // Uniform in [0, 1) with 53 random bits.
  double next_unit();

 private:
  uint64_t state_[4];
};

}  // namespace ingot::sampling
