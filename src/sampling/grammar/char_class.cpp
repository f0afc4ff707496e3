#include "sampling/grammar/char_class.h"

#include <algorithm>

namespace ingot::sampling::grammar {
namespace {

std::vector<std::pair<char32_t, char32_t>> merged(
    std::vector<std::pair<char32_t, char32_t>> ranges) {
  for (auto& [first, last] : ranges) {
    if (first > last) std::swap(first, last);
    last = std::min(last, kMaxCodePoint);
  }
  std::sort(ranges.begin(), ranges.end());
  std::vector<std::pair<char32_t, char32_t>> out;
  for (const auto& range : ranges) {
    if (range.first > kMaxCodePoint) continue;
    if (!out.empty() && range.first <= out.back().second + 1) {
      out.back().second = std::max(out.back().second, range.second);
    } else {
      out.push_back(range);
    }
  }
  return out;
}

std::vector<std::pair<char32_t, char32_t>> complement(
    const std::vector<std::pair<char32_t, char32_t>>& ranges) {
  std::vector<std::pair<char32_t, char32_t>> out;
  char32_t next = 0;
  for (const auto& [first, last] : ranges) {
    if (first > next) out.emplace_back(next, first - 1);
    next = last + 1;
  }
  if (next <= kMaxCodePoint) out.emplace_back(next, kMaxCodePoint);
  return out;
}

}  // namespace

CharClass CharClass::of(std::vector<std::pair<char32_t, char32_t>> ranges, bool negated) {
  CharClass set;
  set.ranges_ = merged(std::move(ranges));
  if (negated) set.ranges_ = complement(set.ranges_);
  for (const auto& [first, last] : set.ranges_) {
    for (char32_t c = first; c <= last && c < 128; ++c)
      set.ascii_[c >> 6] |= uint64_t{1} << (c & 63);
  }
  return set;
}

bool CharClass::contains_slow(char32_t c) const {
  auto it = std::upper_bound(ranges_.begin(), ranges_.end(), c,
                             [](char32_t v, const auto& range) { return v < range.first; });
  return it != ranges_.begin() && c <= std::prev(it)->second;
}

bool CharClass::intersects(char32_t first, char32_t last) const {
  auto it = std::upper_bound(ranges_.begin(), ranges_.end(), last,
                             [](char32_t v, const auto& range) { return v < range.first; });
  return it != ranges_.begin() && std::prev(it)->second >= first;
}

}  // namespace ingot::sampling::grammar
