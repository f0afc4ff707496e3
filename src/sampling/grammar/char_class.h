#pragma once
// A set of code points: what one grammar position can match. Ranges are
// kept sorted and merged, negation already resolved, and ASCII gets a
// bitmap because nearly every test during decoding is an ASCII byte.

#include <cstdint>
#include <utility>
#include <vector>

namespace ingot::sampling::grammar {

inline constexpr char32_t kMaxCodePoint = 0x10FFFF;

class CharClass {
 public:
  CharClass() = default;
  // `ranges` are inclusive [first, last] pairs in any order, overlaps allowed.
  static CharClass of(std::vector<std::pair<char32_t, char32_t>> ranges, bool negated = false);
  static CharClass single(char32_t c) { return of({{c, c}}); }
  static CharClass any() { return of({{0, kMaxCodePoint}}); }

  bool contains(char32_t c) const {
    if (c < 128) return (ascii_[c >> 6] >> (c & 63)) & 1;
    return contains_slow(c);
  }
  // Whether any code point in [first, last] is in the set.
  bool intersects(char32_t first, char32_t last) const;
  bool empty() const { return ranges_.empty(); }
  const std::vector<std::pair<char32_t, char32_t>>& ranges() const { return ranges_; }

  friend bool operator==(const CharClass& a, const CharClass& b) { return a.ranges_ == b.ranges_; }

 private:
  bool contains_slow(char32_t c) const;

  std::vector<std::pair<char32_t, char32_t>> ranges_;
  uint64_t ascii_[2] = {0, 0};
};

}  // namespace ingot::sampling::grammar
