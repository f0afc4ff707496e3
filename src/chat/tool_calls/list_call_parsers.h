#pragma once
// Calls written as a list whose elements name themselves, each sent on
// once the element is whole: Apertus' [{"NAME": {arguments}}, ...] and the
// pythonic [name(key=value, ...), ...] of LFM2 (values as Python literals).

#include <memory>
#include <string>

#include "chat/tool_calls/call_syntax.h"
#include "chat/tool_calls/json_value_scanner.h"

namespace ingot::chat::tool_calls {

class NameKeyedListParser : public CallSyntax {
 public:
  explicit NameKeyedListParser(CallSink& sink) : sink_(sink) {}

  Outcome feed(char c) override;
  Outcome finish() override;

 private:
  enum class Phase { kBeforeOpen, kElementOrClose, kElement, kCommaOrClose };

  Outcome element_byte(char c);

  CallSink& sink_;
  Phase phase_ = Phase::kBeforeOpen;
  JsonValueScanner element_;
  std::string text_;
  bool any_call_ = false;
};

class PythonCallListParser : public CallSyntax {
 public:
  explicit PythonCallListParser(CallSink& sink) : sink_(sink) {}

  Outcome feed(char c) override;
  Outcome finish() override;

 private:
  enum class Phase { kBeforeOpen, kCallOrClose, kCall, kCommaOrClose };

  Outcome call_byte(char c);
  bool send_call();

  CallSink& sink_;
  Phase phase_ = Phase::kBeforeOpen;
  std::string text_;
  int depth_ = 0;  // brackets open inside the call's parentheses
  char quote_ = 0;
  bool escape_ = false;
  bool any_call_ = false;
};

}  // namespace ingot::chat::tool_calls
