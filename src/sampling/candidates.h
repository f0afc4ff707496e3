#pragma once
// The working set of a sampling step: token ids with their logits, narrowed
// by each truncation (top-k, top-p, min-p) without touching the logits array.
//
// A vocabulary holds 30k-260k tokens and the engine samples every sequence
// of a step on its own thread while the thread pool waits, so the fills
// that truncate (reset_top_k, reset_at_least) read the logits once and copy
// only the tokens that can survive; a full reset and sort is the slow path.

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
  // Fills with the k best tokens, sorted by logit descending (ties: lower
  // id first): what reset() then keep_top_k(k) gives, without copying
  // the whole vocabulary.
  void reset_top_k(std::span<const float> logits, size_t k);
  // Fills with every token whose logit is at least `threshold`, in id order.
  void reset_at_least(std::span<const float> logits, float threshold);

  std::span<Candidate> items() { return {items_.data(), size_}; }
  size_t size() const { return size_; }
  bool sorted() const { return sorted_; }

  // Keeps the k best, sorted by logit descending.
  void keep_top_k(size_t k);
  // Sorts all by logit descending (stable ties: lower id first).
  void sort_descending();
  // Keeps the fewest best tokens whose exp(logit - best) sum reaches
  // `mass` (top-p's nucleus), every item's logit lying within `distance`
  // (finite) of `best`, the largest. The kept set is what sorting and
  // cutting gives, but only the tokens around the cut get sorted: the
  // others keep their order, which the draw does not care about. A flat
  // distribution's nucleus spans most of the vocabulary, and sorting all of
  // it cost milliseconds per token on a 150k vocabulary while every other
  // sequence of the step waited. Returns false, keeping every item, when all of them
  // together fall short of `mass`.
  bool keep_best_mass(float best, float distance, double mass);
  void truncate(size_t n) { size_ = n < size_ ? n : size_; }
  // Probabilities of the current items at `temperature`, into `probs`.
  void softmax(float temperature, std::vector<float>& probs) const;

 private:
  const double* weigh(std::span<const Candidate> items, float best);

  std::vector<Candidate> items_;
  size_t size_ = 0;
  bool sorted_ = false;
  // weigh's scratch: the items' logits side by side, and their weights.
  std::vector<float> logits_;
  std::vector<double> weights_;
};

// The largest logit (-inf for none).
float max_logit(std::span<const float> logits);

}  // namespace ingot::sampling
