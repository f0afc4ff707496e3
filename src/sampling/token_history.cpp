#include "sampling/token_history.h"

namespace ingot::sampling {

void TokenHistory::push(int32_t token) {
  if (window_ == 0) return;
  recent_.push_back(token);
  ++counts_[token];
  if (window_ > 0 && recent_.size() > static_cast<size_t>(window_)) {
    int32_t oldest = recent_.front();
    recent_.pop_front();
    if (--counts_[oldest] == 0) counts_.erase(oldest);
  }
}

void TokenHistory::clear() {
  recent_.clear();
  counts_.clear();
}

}  // namespace ingot::sampling
