#pragma once
// Arguments written as nested elements, each tag behind a marker (MiniMax
// M3): MARK<city>Paris MARK</city> MARK<days>3 MARK</days>, an object as
// elements inside its parameter's, an array as MARK<item> elements. A
// parameter is typed by the tool's schema (argument_typing.h) once its
// closing tag is read, and sent on as one JSON member.

#include <string>
#include <string_view>
#include <vector>

#include "chat/tool_calls/argument_typing.h"
#include "chat/tool_calls/call_syntax.h"
#include "chat/tool_calls/literal_match.h"

namespace ingot::chat::tool_calls {

class ElementArgumentsParser : public CallSyntax {
 public:
  // Opens the call to `tool` at once (its name is known) and sends "{".
  ElementArgumentsParser(std::string_view marker, std::string tool, const ToolSchemas& schemas,
                         CallSink& sink);

  // kDone at a closing tag outside every parameter (the call's own), with
  // the marker and "</" as the spill; the object is closed then.
  Outcome feed(char c) override;
  // The reply ended inside the arguments: the object is closed (a parameter
  // cut short is dropped) and the call stands.
  Outcome finish() override;

  // One element as read: its text, or the elements inside it.
  struct Element {
    std::string name;
    std::string text;
    std::vector<Element> children;
  };

 private:
  enum class Phase { kText, kTagOpen, kTagName };

  Outcome text_byte(char c);
  Outcome tag_name_byte(char c);
  Outcome end_tag();
  void send(const Element& parameter);
  void close_object();

  std::string_view marker_;
  std::string tool_;
  const ToolSchemas& schemas_;
  CallSink& sink_;
  Phase phase_ = Phase::kText;
  TextUntil until_;
  std::string tag_;
  std::vector<Element> open_;  // the elements open, outermost first
  bool any_member_ = false;
  bool closed_ = false;
};

// The JSON value of `element`, typed by `schema` (null: untyped): elements
// inside it make an array where the schema says array, or where, without
// one, every one is an <item>; an object otherwise.
nlohmann::ordered_json element_value(const ElementArgumentsParser::Element& element,
                                     const nlohmann::ordered_json* schema);

}  // namespace ingot::chat::tool_calls
