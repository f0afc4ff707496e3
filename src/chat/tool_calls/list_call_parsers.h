#pragma once
// The elements of the call lists whose elements name themselves (read
// inside a CallListParser), each sent on once it is whole: Apertus'
// {"NAME": {arguments}} and the pythonic name(key=value, ...) of LFM2
// (values as Python literals).

#include <memory>
#include <string>

#include "chat/tool_calls/call_syntax.h"
#include "chat/tool_calls/json_value_scanner.h"

namespace ingot::chat::tool_calls {

class NameKeyedCallParser : public CallSyntax {
 public:
  explicit NameKeyedCallParser(CallSink& sink) : sink_(sink) {}

  Outcome feed(char c) override;
  // An element cut short sends nothing.
  Outcome finish() override { return Outcome::failed(); }

 private:
  CallSink& sink_;
  JsonValueScanner object_;
  std::string text_;
};

class PythonCallParser : public CallSyntax {
 public:
  explicit PythonCallParser(CallSink& sink) : sink_(sink) {}

  Outcome feed(char c) override;
  Outcome finish() override { return Outcome::failed(); }

 private:
  CallSink& sink_;
  std::string text_;
  int depth_ = 0;  // brackets open, the call's parentheses among them
  char quote_ = 0;
  bool escape_ = false;
};

std::unique_ptr<CallSyntax> name_keyed_call_element(CallSink& sink);
std::unique_ptr<CallSyntax> python_call_element(CallSink& sink);

}  // namespace ingot::chat::tool_calls
