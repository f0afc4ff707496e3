#pragma once
// Calls written as JSON: an object {"name": ..., "arguments": {...}} (or
// "parameters", Llama's and Cohere's word; Cohere names the call with
// "tool_name"), and an array of such objects. The object form
// may also be the generic wrapper {"tool_calls": [ ...objects... ]}.

#include <memory>
#include <optional>
#include <string>

#include "chat/tool_calls/call_syntax.h"
#include "chat/tool_calls/json_value_scanner.h"

namespace ingot::chat::tool_calls {

class ArrayCallParser;

// Leading whitespace, then one object. A call opens when its arguments begin
// after its name; with the arguments first, it opens when the object closes.
class ObjectCallParser : public CallSyntax {
 public:
  ObjectCallParser(CallSink& sink, bool allow_wrapper);
  ~ObjectCallParser() override;

  Outcome feed(char c) override;
  Outcome finish() override;

 private:
  enum class Phase { kBeforeOpen, kKeyOrClose, kKey, kInKey, kColon, kValue, kNested, kAfterValue };
  enum class Role { kName, kArguments, kWrapper, kOther };

  Outcome begin_value(char c);
  Outcome value_byte(char c);
  Outcome end_value();
  Outcome after_value(char c);
  Outcome close_object();

  CallSink& sink_;
  bool allow_wrapper_;
  Phase phase_ = Phase::kBeforeOpen;
  std::string key_;
  bool key_escape_ = false;
  Role role_ = Role::kOther;
  JsonValueScanner value_;
  std::string value_text_;  // the name's JSON, or arguments seen before the name
  std::optional<std::string> name_;
  std::optional<std::string> early_arguments_;
  bool arguments_seen_ = false;
  bool streaming_ = false;
  bool opened_ = false;
  std::unique_ptr<ArrayCallParser> nested_;
};

// Leading whitespace, then [ object, object, ... ].
class ArrayCallParser : public CallSyntax {
 public:
  explicit ArrayCallParser(CallSink& sink) : sink_(sink) {}

  Outcome feed(char c) override;
  Outcome finish() override;

 private:
  enum class Phase { kBeforeOpen, kElementOrClose, kElement, kInElement, kCommaOrClose };

  CallSink& sink_;
  Phase phase_ = Phase::kBeforeOpen;
  std::unique_ptr<ObjectCallParser> element_;
  bool any_call_ = false;
};

}  // namespace ingot::chat::tool_calls
