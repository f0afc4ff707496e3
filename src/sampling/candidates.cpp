#include "sampling/candidates.h"

#include <algorithm>
#include <cmath>

namespace ingot::sampling {
namespace {

bool better(const Candidate& a, const Candidate& b) {
  return a.logit > b.logit || (a.logit == b.logit && a.id < b.id);
}

}  // namespace

void Candidates::reset(std::span<const float> logits) {
  items_.resize(logits.size());
  for (size_t i = 0; i < logits.size(); ++i) {
    items_[i] = {static_cast<int32_t>(i), logits[i]};
  }
  size_ = logits.size();
  sorted_ = false;
}

void Candidates::keep_top_k(size_t k) {
  if (k >= size_) {
    sort_descending();
    return;
  }
  std::partial_sort(items_.begin(), items_.begin() + k, items_.begin() + size_, better);
  size_ = k;
  sorted_ = true;
}

void Candidates::sort_descending() {
  if (sorted_) return;
  std::sort(items_.begin(), items_.begin() + size_, better);
  sorted_ = true;
}

void Candidates::softmax(float temperature, std::vector<float>& probs) const {
  probs.resize(size_);
  if (size_ == 0) return;
  float max_logit = -INFINITY;
  for (size_t i = 0; i < size_; ++i) max_logit = std::max(max_logit, items_[i].logit);
  double sum = 0.0;
  for (size_t i = 0; i < size_; ++i) {
    probs[i] = std::exp((items_[i].logit - max_logit) / temperature);
    sum += probs[i];
  }
  for (size_t i = 0; i < size_; ++i) probs[i] = static_cast<float>(probs[i] / sum);
}

}  // namespace ingot::sampling
