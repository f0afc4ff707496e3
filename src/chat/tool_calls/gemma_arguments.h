#pragma once
// Gemma 4's call arguments, {city:<|"|>Paris<|"|>,days:2,opts:{a:[1]}},
// rewritten as JSON byte by byte as they arrive and streamed to the call:
// bare keys quoted, strings delimited by <|"|> quoted and escaped, numbers
// and true/false/null as they are (any other bare word becomes a string).

#include <optional>
#include <string>
#include <vector>

#include "chat/tool_calls/call_syntax.h"
#include "chat/tool_calls/literal_match.h"

namespace ingot::chat::tool_calls {

class GemmaArgumentsParser : public CallSyntax {
 public:
  // The call to `name` opens with the arguments' first byte.
  GemmaArgumentsParser(CallSink& sink, std::string name) : sink_(sink), name_(std::move(name)) {}

  // kDone at the object's closing brace.
  Outcome feed(char c) override;
  // Arguments cut short stay as written once the call opened.
  Outcome finish() override { return opened_ ? Outcome::done() : Outcome::failed(); }

 private:
  enum class Status { kMore, kComplete, kInvalid };
  enum class Expect { kOpen, kKeyOrClose, kKey, kColon, kValue, kValueOrClose, kCommaOrClose };

  Status transcode(char c, std::string& json);
  Status structural(char c, std::string& json);
  Status string_byte(char c, std::string& json);
  Status end_word(std::string& json);
  Status after_value();

  CallSink& sink_;
  std::string name_;
  bool opened_ = false;
  std::vector<char> stack_;  // '{' or '['
  Expect expect_ = Expect::kOpen;
  std::optional<TextUntil> string_;  // inside a string, up to its closing <|"|>
  bool string_is_key_ = false;
  std::string quote_;  // a partial opening <|"|>
  bool in_word_ = false;
  bool word_is_key_ = false;
  std::string word_;
};

}  // namespace ingot::chat::tool_calls
