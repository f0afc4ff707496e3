#pragma once
// The syntaxes that follow a family's opening marker: Hermes' <tool_call>,
// Mistral's [TOOL_CALLS], Llama's <|python_tag|> and harmony's
// to=functions.

#include <memory>
#include <optional>
#include <string>

#include "chat/tool_calls/call_list_parser.h"
#include "chat/tool_calls/call_syntax.h"
#include "chat/tool_calls/json_call_parsers.h"

namespace ingot::chat::tool_calls {

// After <tool_call>: one JSON object call, then </tool_call>. A missing or
// different closing tag ends the call all the same; its bytes go back to
// the content.
class HermesCallParser : public CallSyntax {
 public:
  explicit HermesCallParser(CallSink& sink) : object_(sink, false) {}

  Outcome feed(char c) override;
  Outcome finish() override;

 private:
  ObjectCallParser object_;
  bool object_done_ = false;
  std::string close_matched_;
};

// After [TOOL_CALLS]: a JSON array of object calls (Mistral Nemo), or
// name[ARGS]{...} with an optional [CALL_ID]id before [ARGS] (newer
// templates; each further call repeats [TOOL_CALLS]).
class MistralCallParser : public CallSyntax {
 public:
  explicit MistralCallParser(CallSink& sink) : sink_(sink) {}

  Outcome feed(char c) override;
  Outcome finish() override;

 private:
  enum class Phase { kStart, kArray, kName, kTag, kCallId, kArguments };

  Outcome tag_byte(char c);

  CallSink& sink_;
  Phase phase_ = Phase::kStart;
  std::unique_ptr<CallListParser> array_;
  std::string name_;
  std::string tag_;                               // a [TAG] being matched
  std::optional<JsonArgumentsParser> arguments_;  // after [ARGS]
};

// After <|python_tag|>: a JSON object call; a builtin tool's
// name.call(key="value", ...) (decided at the end of the reply); or code for
// the code interpreter, reported as a call to "python" with {"code": ...}.
class PythonTagCallParser : public CallSyntax {
 public:
  explicit PythonTagCallParser(CallSink& sink) : sink_(sink), object_(sink, false) {}

  Outcome feed(char c) override;
  Outcome finish() override;

 private:
  enum class Phase { kStart, kObject, kIdentifier, kBuiltin, kCode };

  void start_code(std::string_view code);

  CallSink& sink_;
  ObjectCallParser object_;
  Phase phase_ = Phase::kStart;
  std::string text_;  // identifier so far, or the builtin call's text
};

// After to=functions.: the name up to <|message|> (anything between, such
// as <|constrain|>json, is skipped), then one JSON object of arguments.
class HarmonyCallParser : public CallSyntax {
 public:
  explicit HarmonyCallParser(CallSink& sink) : sink_(sink) {}

  Outcome feed(char c) override;
  Outcome finish() override;

 private:
  enum class Phase { kName, kHeader, kArguments };

  CallSink& sink_;
  Phase phase_ = Phase::kName;
  std::string name_;
  std::string header_;  // after the name, until <|message|>
  std::optional<JsonArgumentsParser> arguments_;
};

}  // namespace ingot::chat::tool_calls
