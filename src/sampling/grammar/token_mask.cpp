#include "sampling/grammar/token_mask.h"

#include <algorithm>
#include <bit>
#include <limits>

namespace ingot::sampling::grammar {

int64_t TokenMask::count() const {
  int64_t n = 0;
  for (uint64_t w : words_) n += std::popcount(w);
  return n;
}

bool TokenMask::none() const {
  return std::all_of(words_.begin(), words_.end(), [](uint64_t w) { return w == 0; });
}

void TokenMask::apply(std::span<float> logits) const {
  constexpr float kNever = -std::numeric_limits<float>::infinity();
  size_t covered = std::min(logits.size(), static_cast<size_t>(size_));
  for (size_t word = 0; word * 64 < covered; ++word) {
    uint64_t bits = words_[word];
    if (bits == ~uint64_t{0}) continue;
    size_t end = std::min(covered, word * 64 + 64);
    for (size_t i = word * 64; i < end; ++i) {
      if (!((bits >> (i & 63)) & 1)) logits[i] = kNever;
    }
  }
  for (size_t i = covered; i < logits.size(); ++i) logits[i] = kNever;
}

}  // namespace ingot::sampling::grammar
