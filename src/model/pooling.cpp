#include "model/pooling.h"

#include <algorithm>

namespace ingot::model {

PooledEmbedding::PooledEmbedding(Pooling pooling, int64_t length, const RankHead* head)
    : pooling_(pooling), length_(length), head_(pooling == Pooling::kRank ? head : nullptr) {
  if (head_ != nullptr) pooling_ = head_->reads_last_token() ? Pooling::kLast : Pooling::kCls;
}

void PooledEmbedding::add(const float* rows, int64_t n, int64_t n_embd, int64_t first) {
  if (sum_.empty()) sum_.assign(size_t(n_embd), 0.0f);
  for (int64_t i = 0; i < n; ++i) {
    const int64_t position = first + i;
    const float* row = rows + i * n_embd;
    if (pooling_ == Pooling::kMean) {
      for (int64_t d = 0; d < n_embd; ++d) sum_[size_t(d)] += row[d];
    } else if ((pooling_ == Pooling::kLast && position == length_ - 1) ||
               (pooling_ == Pooling::kCls && position == 0)) {
      std::copy_n(row, n_embd, sum_.begin());
    }
  }
}

std::vector<float> PooledEmbedding::take() {
  if (pooling_ == Pooling::kMean && length_ > 0) {
    const float scale = 1.0f / static_cast<float>(length_);
    for (float& value : sum_) value *= scale;
  }
  if (head_ != nullptr) return head_->scores(sum_);
  return std::move(sum_);
}

}  // namespace ingot::model
