#include "sampling/rng.h"

namespace ingot::sampling {
namespace {

// splitmix64 spreads one seed over the four words of xoshiro256**'s state.
uint64_t splitmix64(uint64_t& x) {
  uint64_t z = (x += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

uint64_t rotl(uint64_t x, int k) {
  return (x << k) | (x >> (64 - k));
}

}  // namespace

SeededRng::SeededRng(uint64_t seed) {
  for (uint64_t& word : state_) word = splitmix64(seed);
}

uint64_t SeededRng::next_u64() {
  uint64_t result = rotl(state_[1] * 5, 7) * 9;
  uint64_t t = state_[1] << 17;
  state_[2] ^= state_[0];
  state_[3] ^= state_[1];
  state_[1] ^= state_[2];
  state_[0] ^= state_[3];
  state_[2] ^= t;
  state_[3] = rotl(state_[3], 45);
  return result;
}

double SeededRng::next_unit() {
  return static_cast<double>(next_u64() >> 11) * 0x1.0p-53;
}

}  // namespace ingot::sampling
