#pragma once
// The tool-call syntaxes that differ only in their markers, written as data:
// where the calls sit (an optional section around them), how one call opens,
// what comes between its opening and its arguments (the name, an id to skip,
// more markers), the form of the arguments, and how the call closes.
// FormatCallParser (format_call_parser.h) reads any of them.

#include <string_view>
#include <vector>

#include "chat/tool_calls/tagged_arguments.h"
#include "chat/tool_calls/tool_call_family.h"

namespace ingot::chat::tool_calls {

// One step between a call's opening and its arguments.
struct HeaderPiece {
  enum class Kind {
    kLiteral,  // `text`, after any whitespace
    kName,     // the function's name: letters, digits, '_', '-', '.'
    kSkipTo,   // anything (an id, an index) up to and including `text`
  };
  Kind kind;
  std::string_view text;
};

enum class ArgumentsForm {
  kJsonObject,      // {...}, streamed as written
  kTagged,          // key/value tags (TaggedArgumentSpelling), typed by schema
  kGemma,           // Gemma 4's {key:<|"|>text<|"|>,...}
  kJsonCall,        // {"name": ..., "arguments": {...}}: the body names the call
  kJsonCallList,    // [{"name"|"tool_name": ..., "arguments"|"parameters": {...}}, ...]
  kNameKeyedList,   // [{"NAME": {...}}, ...]
  kPythonCallList,  // [name(key=value, ...), ...]
  kElements,        // nested elements behind `element_marker` (ElementArgumentsParser)
};

// Whether the arguments' form carries the call's name (the JSON call and
// list forms), rather than the header.
bool names_itself(ArgumentsForm form);

// Every member has an initializer, so that a format names only what it sets
// (designated initializers, call_format.cpp).
struct CallFormat {
  // A block holding one or more calls; its close may be missing (the turn's
  // end token closes it). Empty when each call stands alone.
  std::string_view section_open{};
  std::string_view section_close{};
  // Each call's opening, inside a section or alone in the content.
  std::string_view call_open{};
  std::vector<HeaderPiece> header{};
  ArgumentsForm arguments = ArgumentsForm::kJsonObject;
  TaggedArgumentSpelling tagged{};
  // What precedes each tag of the kElements form.
  std::string_view element_marker{};
  // Markers after the arguments, each after any whitespace.
  std::vector<std::string_view> call_close{};
  // A name that is not a call but introduces plain text (Functionary's "all").
  std::string_view content_name{};
  // The prompt wrote the call's opening: the reply begins after it.
  bool opens_reply = false;
  // The syntax holds one call per reply.
  bool single_call = false;
  // The keys the JSON call forms write (a grammar spells them; the parser
  // reads "name"/"tool_name" and "arguments"/"parameters" alike).
  std::string_view name_key = "name";
  std::string_view arguments_key = "arguments";
  // What a grammar writes where the parser skips (Kimi's :0, Solar's id).
  std::string_view skipped_text = "0";
};

// The format of a family written as data; null for the families parsed by
// their own classes (Hermes, Llama 3, Mistral, harmony, generic).
const CallFormat* call_format(ToolCallFamily family);

}  // namespace ingot::chat::tool_calls
