#pragma once
// The tokens a sequence has produced, with counts over the penalty window,
// so that repetition/frequency/presence penalties cost O(window) memory and
// O(1) per token instead of rescanning the history.

#include <cstddef>
#include <cstdint>
#include <deque>
#include <unordered_map>

namespace ingot::sampling {

class TokenHistory {
 public:
  // window < 0 keeps every token.
  explicit TokenHistory(int32_t window) : window_(window) {}

  void push(int32_t token);
  void clear();
  const std::unordered_map<int32_t, int32_t>& counts() const { return counts_; }
  size_t size() const { return recent_.size(); }

 private:
  int32_t window_;
  std::deque<int32_t> recent_;
  std::unordered_map<int32_t, int32_t> counts_;
};

}  // namespace ingot::sampling
