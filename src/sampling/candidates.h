#pragma once
// The working set of a sampling step: token ids with their logits, narrowed
// by each truncation (top-k, top-p, min-p) without touching the logits array.

#include <cstdint>
#include <span>
#include <vector>

namespace ingot::sampling {

struct Candidate {
  int32_t id;
  float logit;
};

class Candidates {
 public:
  // Fills with every token; reuses its storage across steps.
  void reset(std::span<const float> logits);

  std::span<Candidate> items() { return {items_.data(), size_}; }
  size_t size() const { return size_; }
  bool sorted() const { return sorted_; }

  // Keeps the k best, sorted by logit descending.
  void keep_top_k(size_t k);
  // Sorts all by logit descending (stable ties: lower id first).
  void sort_descending();
  void truncate(size_t n) { size_ = n < size_ ? n : size_; }
  // Probabilities of the current items at `temperature`, into `probs`.
  void softmax(float temperature, std::vector<float>& probs) const;

 private:
  std::vector<Candidate> items_;
  size_t size_ = 0;
  bool sorted_ = false;
};

}  // namespace ingot::sampling
