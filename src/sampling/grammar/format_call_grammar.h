#pragma once
// The grammar of calls in a format written as data (chat/tool_calls/
// call_format.h): each tool's call spelled in the format's markers, its
// arguments valid against the tool's schema in the format's own encoding
// (JSON, tagged key/value pairs with raw text for strings, Gemma 4's
// object, or Python keyword arguments).

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "chat/tool_calls/call_format.h"
#include "sampling/grammar/json_schema_grammar.h"
#include "util/status.h"

namespace ingot::sampling::grammar {

struct GrammarTool {
  std::string name;
  nlohmann::ordered_json parameters;  // a JSON Schema object
};

// The body of the root rule: one call (`one_call`) or calls in the format's
// own sequence, each of `tools`; rules are added to `builder`.
Result<std::string> format_calls_rule(const chat::tool_calls::CallFormat& format,
                                      const std::vector<GrammarTool>& tools, bool one_call,
                                      JsonSchemaGrammarBuilder& builder);

// Where an "auto" grammar for the format arms.
std::vector<std::string> format_triggers(const chat::tool_calls::CallFormat& format);

}  // namespace ingot::sampling::grammar
