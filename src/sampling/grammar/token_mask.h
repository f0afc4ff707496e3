#pragma once
// Which tokens of a vocabulary are allowed next: one bit per token id.

#include <cstdint>
#include <span>
#include <vector>

namespace ingot::sampling::grammar {

class TokenMask {
 public:
  TokenMask() = default;
  explicit TokenMask(int32_t size) { reset(size); }

  void reset(int32_t size) {
    size_ = size;
    words_.assign((static_cast<size_t>(size) + 63) / 64, 0);
  }
  int32_t size() const { return size_; }
  bool allows(int32_t id) const {
    return id >= 0 && id < size_ && ((words_[static_cast<size_t>(id) >> 6] >> (id & 63)) & 1);
  }
  void allow(int32_t id) {
    if (id >= 0 && id < size_) words_[static_cast<size_t>(id) >> 6] |= uint64_t{1} << (id & 63);
  }
  void disallow(int32_t id) {
    if (id >= 0 && id < size_) words_[static_cast<size_t>(id) >> 6] &= ~(uint64_t{1} << (id & 63));
  }
  // Allows every token `other` allows (same size).
  void merge(const TokenMask& other) {
    for (size_t i = 0; i < words_.size() && i < other.words_.size(); ++i)
      words_[i] |= other.words_[i];
  }
  int64_t count() const;
  bool none() const;
  // Sets the logit of every disallowed token to -infinity. Logits past the
  // mask's size (a model whose output is wider than its vocabulary) too.
  void apply(std::span<float> logits) const;

  friend bool operator==(const TokenMask&, const TokenMask&) = default;

 private:
  int32_t size_ = 0;
  std::vector<uint64_t> words_;
};

}  // namespace ingot::sampling::grammar
