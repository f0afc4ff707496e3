#include "chat/tool_calls/call_list_parser.h"

namespace ingot::chat::tool_calls {

Outcome CallListParser::feed(char c) {
  switch (phase_) {
    case Phase::kBeforeOpen:
      if (is_json_space(c)) return Outcome::more();
      if (c != '[') return Outcome::failed();
      phase_ = Phase::kElementOrClose;
      return Outcome::more();
    case Phase::kElementOrClose:
    case Phase::kElement:
      if (is_json_space(c)) return Outcome::more();
      if (c == ']' && phase_ == Phase::kElementOrClose) {
        return any_call_ ? Outcome::done() : Outcome::failed();
      }
      element_ = make_element_(sink_);
      phase_ = Phase::kInElement;
      return element_->feed(c);
    case Phase::kInElement: {
      Outcome outcome = element_->feed(c);
      if (outcome.progress != Outcome::Progress::kDone) return outcome;
      element_.reset();
      any_call_ = true;
      phase_ = Phase::kCommaOrClose;
      return Outcome::more();
    }
    case Phase::kCommaOrClose:
      if (is_json_space(c)) return Outcome::more();
      if (c == ',') {
        phase_ = Phase::kElement;
        return Outcome::more();
      }
      if (c == ']') return Outcome::done();
      return Outcome::failed();
  }
  return Outcome::failed();
}

Outcome CallListParser::finish() {
  bool opened = any_call_;
  if (element_) opened = element_->finish().progress == Outcome::Progress::kDone || opened;
  return opened ? Outcome::done() : Outcome::failed();
}

}  // namespace ingot::chat::tool_calls
