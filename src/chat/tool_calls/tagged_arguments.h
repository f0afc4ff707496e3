#pragma once
// Arguments written as tagged key/value pairs, one syntax told from another
// only by its tags: Qwen3-Coder's <parameter=KEY>VALUE</parameter>, GLM's
// <arg_key>KEY</arg_key><arg_value>VALUE</arg_value>, MiniMax's
// <parameter name="KEY">VALUE</parameter>, DeepSeek's DSML with its
// string="true|false" attribute. Each value is typed by the tool's schema
// (argument_typing.h) and sent on as one JSON member once its closing tag
// is read.

#include <string>
#include <string_view>

#include "chat/tool_calls/argument_typing.h"
#include "chat/tool_calls/call_syntax.h"
#include "chat/tool_calls/literal_match.h"

namespace ingot::chat::tool_calls {

struct TaggedArgumentSpelling {
  std::string_view key_open;
  std::string_view key_close;
  // When set, the key's tag goes on with attributes up to this (DSML's
  // ` string="true">`); string="true" makes the value a string, "false" JSON.
  std::string_view attributes_close;
  std::string_view value_open;  // may be empty: the value follows the key's close
  std::string_view value_close;
  // The syntax puts a newline on each side of a value (Qwen3-Coder).
  bool newline_padded = false;
};

class TaggedArgumentsParser : public CallSyntax {
 public:
  // Opens the call to `tool` at once (its name is known) and sends "{".
  TaggedArgumentsParser(const TaggedArgumentSpelling& spelling, std::string tool,
                        const ToolSchemas& schemas, CallSink& sink);

  // kDone, with the bytes read since the last value as the spill, once
  // something other than another key begins (the call's close, as a rule);
  // the object is closed then.
  Outcome feed(char c) override;
  // The reply ended inside the arguments: the object is closed (a value cut
  // short is dropped) and the call stands.
  Outcome finish() override;

 private:
  enum class Phase { kBoundary, kKey, kAttributes, kValueOpen, kValue };

  Outcome boundary_byte(char c);
  void start_key();
  void end_value();
  void close_object();

  const TaggedArgumentSpelling& spelling_;
  std::string tool_;
  const ToolSchemas& schemas_;
  CallSink& sink_;
  Phase phase_ = Phase::kBoundary;
  LiteralMatch boundary_;
  TextUntil until_;
  std::string key_;
  std::string attributes_;
  std::string value_;
  bool any_member_ = false;
  bool closed_ = false;
};

}  // namespace ingot::chat::tool_calls
