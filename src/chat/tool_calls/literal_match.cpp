#include "chat/tool_calls/literal_match.h"

#include <algorithm>

namespace ingot::chat::tool_calls {

LiteralMatch::LiteralMatch(std::vector<std::string_view> alternatives)
    : alternatives_(std::move(alternatives)) {}

LiteralMatch::State LiteralMatch::feed(char c) {
  consumed_.push_back(c);
  if (text_.empty() && is_json_space(c)) return State::kPending;
  text_.push_back(c);
  bool prefix = false;
  for (size_t i = 0; i < alternatives_.size(); ++i) {
    std::string_view alternative = alternatives_[i];
    if (alternative.empty()) continue;
    if (alternative == text_) {
      matched_ = i;
      return State::kMatched;
    }
    prefix = prefix || alternative.starts_with(text_);
  }
  return prefix ? State::kPending : State::kMismatch;
}

bool TextUntil::feed(char c, std::string& released) {
  held_.push_back(c);
  if (held_ == close_) {
    held_.clear();
    return true;
  }
  // Release from the front until what is held could still begin the close.
  size_t keep = held_.size();
  while (keep > 0 && !close_.starts_with(std::string_view(held_).substr(held_.size() - keep))) {
    --keep;
  }
  released.append(held_, 0, held_.size() - keep);
  held_.erase(0, held_.size() - keep);
  return false;
}

}  // namespace ingot::chat::tool_calls
