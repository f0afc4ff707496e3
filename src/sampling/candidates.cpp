#include "sampling/candidates.h"

#include <algorithm>
#include <array>
#include <cmath>

#include "kernels/ops_exp_sum.h"

namespace ingot::sampling {
namespace {

// Logits are scanned in blocks; a block with nothing that can enter the set
// is skipped after one comparison per logit, which the compiler vectorizes.
constexpr size_t kScanBlock = 64;

bool better(const Candidate& a, const Candidate& b) {
  return a.logit > b.logit || (a.logit == b.logit && a.id < b.id);
}

bool any_above(const float* logits, float floor) {
  int any = 0;
  for (size_t j = 0; j < kScanBlock; ++j) any |= logits[j] > floor ? 1 : 0;
  return any != 0;
}

bool any_at_least(const float* logits, float threshold) {
  int any = 0;
  for (size_t j = 0; j < kScanBlock; ++j) any |= logits[j] >= threshold ? 1 : 0;
  return any != 0;
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

void Candidates::reset_top_k(std::span<const float> logits, size_t k) {
  if (k >= logits.size()) {
    reset(logits);
    sort_descending();
    return;
  }
  // Tokens are gathered into a buffer of a few k; when it fills, it is cut
  // to its k best and the k-th best's logit becomes the floor a later token
  // must beat. A later token equal to the floor has a higher id, so it
  // loses the tie and may be dropped. Before the first cut every token
  // enters, so that a row with fewer than k finite logits keeps -inf ones
  // as keep_top_k would.
  const size_t capacity = std::max<size_t>(4 * k, 256);
  items_.clear();
  items_.reserve(capacity + kScanBlock);
  float floor = -INFINITY;
  bool cut = false;
  auto cut_to_k = [&] {
    std::nth_element(items_.begin(), items_.begin() + static_cast<ptrdiff_t>(k - 1), items_.end(),
                     better);
    items_.resize(k);
    floor = items_[k - 1].logit;
    cut = true;
  };
  for (size_t start = 0; start < logits.size(); start += kScanBlock) {
    size_t end = std::min(start + kScanBlock, logits.size());
    if (cut && end - start == kScanBlock && !any_above(&logits[start], floor)) continue;
    for (size_t i = start; i < end; ++i) {
      float logit = logits[i];
      if (cut ? logit > floor : !std::isnan(logit)) {
        items_.push_back({static_cast<int32_t>(i), logit});
      }
    }
    if (items_.size() >= capacity) cut_to_k();
  }
  size_t keep = std::min(k, items_.size());
  std::partial_sort(items_.begin(), items_.begin() + static_cast<ptrdiff_t>(keep), items_.end(),
                    better);
  size_ = keep;
  sorted_ = true;
}

void Candidates::reset_at_least(std::span<const float> logits, float threshold) {
  items_.clear();
  for (size_t start = 0; start < logits.size(); start += kScanBlock) {
    size_t end = std::min(start + kScanBlock, logits.size());
    if (end - start == kScanBlock && !any_at_least(&logits[start], threshold)) continue;
    for (size_t i = start; i < end; ++i) {
      if (logits[i] >= threshold) items_.push_back({static_cast<int32_t>(i), logits[i]});
    }
  }
  size_ = items_.size();
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

bool Candidates::keep_best_mass(float best, float distance, double mass) {
  // Buckets of equal logit width from the best down; bucket b's tokens all
  // beat bucket b + 1's.
  constexpr int kBuckets = 256;
  const float width = distance / kBuckets;
  auto bucket_of = [&](const Candidate& c) {
    return std::min(kBuckets - 1, static_cast<int>((best - c.logit) / width));
  };
  const double* weights = weigh({items_.data(), size_}, best);
  std::array<double, kBuckets> bucket_mass{};
  for (size_t i = 0; i < size_; ++i) bucket_mass[bucket_of(items_[i])] += weights[i];
  double all = 0.0;
  for (double m : bucket_mass) all += m;
  if (all < mass) return false;
  int cut = 0;
  double cumulative = 0.0;
  for (; cut < kBuckets - 1 && cumulative + bucket_mass[cut] < mass; ++cut) {
    cumulative += bucket_mass[cut];
  }
  const auto begin = items_.begin(), end = items_.begin() + static_cast<ptrdiff_t>(size_);
  const auto cut_begin =
      std::partition(begin, end, [&](const Candidate& c) { return bucket_of(c) < cut; });
  const auto cut_end =
      std::partition(cut_begin, end, [&](const Candidate& c) { return bucket_of(c) == cut; });
  std::sort(cut_begin, cut_end, better);
  const std::span<const Candidate> cut_items(&*cut_begin, static_cast<size_t>(cut_end - cut_begin));
  const double* cut_weights = weigh(cut_items, best);
  size_t keep = static_cast<size_t>(cut_begin - begin);
  for (size_t i = 0; i < cut_items.size(); ++i) {
    cumulative += cut_weights[i];
    ++keep;
    if (cumulative >= mass) break;
  }
  size_ = keep;
  sorted_ = false;
  return true;
}

// e^(logit - best) of each item, in vectors (libm's exp one at a time was
// most of keep_best_mass); valid until the next call.
const double* Candidates::weigh(std::span<const Candidate> items, float best) {
  logits_.resize(items.size());
  weights_.resize(items.size());
  for (size_t i = 0; i < items.size(); ++i) logits_[i] = items[i].logit;
  kernels::exp_terms(logits_.data(), static_cast<int64_t>(items.size()), best, weights_.data());
  return weights_.data();
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

float max_logit(std::span<const float> logits) {
  // Independent lanes let the compiler keep several maxima in one vector
  // instead of a serial chain through one.
  constexpr size_t kLanes = 16;
  float lanes[kLanes];
  std::fill(std::begin(lanes), std::end(lanes), -INFINITY);
  size_t i = 0;
  for (; i + kLanes <= logits.size(); i += kLanes) {
    for (size_t j = 0; j < kLanes; ++j) lanes[j] = std::max(lanes[j], logits[i + j]);
  }
  float best = *std::max_element(std::begin(lanes), std::end(lanes));
  for (; i < logits.size(); ++i) best = std::max(best, logits[i]);
  return best;
}

}  // namespace ingot::sampling
