#pragma once
// Calls written as JSON: an object {"name": ..., "arguments": {...}} (or
// "parameters", Llama's and Cohere's word; Cohere names the call with
// "tool_name"), possibly the generic wrapper {"tool_calls": [ ...objects...
// ]}; and a call's arguments object after a name the syntax gave before it.

#include <memory>
#include <optional>
#include <string>

#include "chat/tool_calls/call_syntax.h"
#include "chat/tool_calls/json_value_scanner.h"

namespace ingot::chat::tool_calls {

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
  std::unique_ptr<CallSyntax> nested_;  // the wrapper's list
};

// An ObjectCallParser without the wrapper, as an element of a CallListParser.
std::unique_ptr<CallSyntax> json_call_element(CallSink& sink);

// The arguments object after the call's name (Mistral's [ARGS], harmony's
// <|message|>, the data families' JSON form), streamed as written: the call
// opens at the object's first byte. kDone at the object's last byte,
// kFailed on a byte that cannot continue an object.
class JsonArgumentsParser : public CallSyntax {
 public:
  JsonArgumentsParser(CallSink& sink, std::string name) : sink_(sink), name_(std::move(name)) {}

  Outcome feed(char c) override;
  // Arguments cut short stay as written once the call opened.
  Outcome finish() override { return opened_ ? Outcome::done() : Outcome::failed(); }

 private:
  CallSink& sink_;
  std::string name_;
  JsonValueScanner scanner_;
  bool opened_ = false;
};

}  // namespace ingot::chat::tool_calls
