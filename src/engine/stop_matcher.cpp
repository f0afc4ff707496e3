#include "engine/stop_matcher.h"

#include <algorithm>

namespace ingot::engine {

StopMatcher::StopMatcher(std::vector<std::string> stops) : stops_(std::move(stops)) {
  std::erase_if(stops_, [](const std::string& s) { return s.empty(); });
}

StopMatcher::Output StopMatcher::push(std::string_view text) {
  Output out;
  if (stopped_) return out;
  pending_.append(text);

  // The earliest match wins; on a tie at one position, the longest.
  size_t best = std::string::npos;
  for (const auto& stop : stops_) {
    size_t at = pending_.find(stop);
    if (at < best || (at == best && at != std::string::npos && stop.size() > matched_->size())) {
      best = at;
      matched_ = stop;
    }
  }
  if (best != std::string::npos) {
    out.text = pending_.substr(0, best);
    out.stopped = stopped_ = true;
    pending_.clear();
    return out;
  }

  size_t keep = held_back_length();
  out.text = pending_.substr(0, pending_.size() - keep);
  pending_.erase(0, pending_.size() - keep);
  return out;
}

std::string StopMatcher::flush() {
  std::string rest;
  if (!stopped_) rest.swap(pending_);
  return rest;
}

size_t StopMatcher::held_back_length() const {
  // The longest suffix of pending_ that is a proper prefix of some stop.
  size_t longest = 0;
  for (const auto& stop : stops_) {
    size_t max_len = std::min(stop.size() - 1, pending_.size());
    for (size_t len = max_len; len > longest; --len) {
      if (std::string_view(pending_).substr(pending_.size() - len) ==
          std::string_view(stop).substr(0, len)) {
        longest = len;
        break;
      }
    }
  }
  return longest;
}

}  // namespace ingot::engine
