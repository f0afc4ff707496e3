#pragma once
// [ element, element, ... ]: the list that JSON call arrays (Mistral Nemo,
// Apriel, Command R7B, the generic wrapper...), Apertus' name-keyed objects
// and LFM2's pythonic calls share. Each element is read by its own
// CallSyntax, which reports its call and ends on its own last byte.

#include <memory>

#include "chat/tool_calls/call_syntax.h"

namespace ingot::chat::tool_calls {

class CallListParser : public CallSyntax {
 public:
  using MakeElement = std::unique_ptr<CallSyntax> (*)(CallSink&);

  CallListParser(CallSink& sink, MakeElement make_element)
      : sink_(sink), make_element_(make_element) {}

  // Leading whitespace, then the list; an empty list is not a call.
  Outcome feed(char c) override;
  Outcome finish() override;

 private:
  enum class Phase { kBeforeOpen, kElementOrClose, kElement, kInElement, kCommaOrClose };

  CallSink& sink_;
  MakeElement make_element_;
  Phase phase_ = Phase::kBeforeOpen;
  std::unique_ptr<CallSyntax> element_;
  bool any_call_ = false;
};

}  // namespace ingot::chat::tool_calls
