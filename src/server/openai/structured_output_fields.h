#pragma once
// The request fields that constrain what a reply may be: `response_format`,
// llama-server's `grammar`, and tool calling (`tools`, `tool_choice`,
// `parallel_tool_calls`). These checks are about shape only; turning a
// schema or a grammar into a compiled grammar happens when the prompt is
// built, and its errors (an unsupported schema keyword, a malformed
// grammar) are 400s naming the keyword or the position.

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "server/openai/field_validator.h"

namespace ingot::server {

struct ResponseFormat {
  enum class Kind { kText, kJsonObject, kJsonSchema };
  Kind kind = Kind::kText;
  std::string name;               // json_schema.name
  nlohmann::ordered_json schema;  // json_schema.schema (absent: any JSON value)
  bool strict = false;
};

struct ToolChoice {
  enum class Mode { kAuto, kNone, kRequired, kFunction };
  Mode mode = Mode::kAuto;
  std::string function;  // with kFunction
};

struct StructuredOutputFields {
  ResponseFormat response_format;
  std::optional<std::string> grammar;  // GBNF, as llama-server takes it
  // The tools as sent ([{type: "function", function: {name, description,
  // parameters, strict}}]); empty when none.
  nlohmann::ordered_json tools = nlohmann::ordered_json::array();
  ToolChoice tool_choice;
  bool parallel_tool_calls = true;
};

// `response_format`: {type: text | json_object | json_schema}; json_schema
// needs {name: string matching [a-zA-Z0-9_-]{1,64}, schema?: object,
// strict?: boolean}.
void check_response_format(Validator& v, StructuredOutputFields& request);
// `grammar`: a non-empty string; not together with a non-text
// response_format or with tools.
void check_grammar(Validator& v, StructuredOutputFields& request);
// `tools`: a list of {type: "function", function: {name, description?,
// parameters?: object, strict?: boolean}} with distinct names;
// `tool_choice`: "auto" | "none" | "required" | {type: "function",
// function: {name}} naming one of the tools; `parallel_tool_calls`: a
// boolean.
void check_tools(Validator& v, StructuredOutputFields& request);

}  // namespace ingot::server
