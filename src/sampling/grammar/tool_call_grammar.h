#pragma once
// The grammar of a well-formed tool call in a model family's own syntax,
// with arguments valid against each tool's JSON-schema parameters. With
// tool_choice "required" or a named function it constrains the reply from
// its first token; with "auto" it is armed lazily, when the output reaches
// one of `triggers` (the grammar then matches the text from the start of
// the trigger on).

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "chat/tool_calls/tool_call_family.h"
#include "util/status.h"

namespace ingot::sampling::grammar {

enum class ToolChoice {
  kAuto,      // the model decides; the grammar arms at a trigger
  kRequired,  // at least one call, of any tool
  kFunction,  // exactly the named function
};

// A reasoning block the template lets the model write before its reply
// (<think>...</think>): a required call may follow one.
struct ReasoningBlock {
  std::string open;
  std::string close;
  bool opened = false;  // the prompt wrote the open tag: the reply starts inside
};

struct ToolCallGrammarOptions {
  chat::tool_calls::ToolCallFamily family = chat::tool_calls::ToolCallFamily::kGeneric;
  // OpenAI's tools: [{"type": "function", "function": {"name", "description"?,
  // "parameters"?}}]; absent parameters mean any object.
  nlohmann::ordered_json tools = nlohmann::ordered_json::array();
  ToolChoice choice = ToolChoice::kRequired;
  std::string function_name;  // for kFunction
  bool parallel_tool_calls = true;
  // For "required" and a named function: the reasoning block allowed (or,
  // when the prompt opened it, required to close) before the calls.
  std::optional<ReasoningBlock> reasoning;
};

struct ToolCallGrammar {
  std::string gbnf;
  // Where an "auto" grammar arms; empty for "required" and a named function.
  std::vector<std::string> triggers;
};

// kInvalidArgument for malformed tools or an unknown function name;
// kUnsupported (naming it) for a schema keyword the translator lacks.
Result<ToolCallGrammar> tool_call_grammar(const ToolCallGrammarOptions& options);

}  // namespace ingot::sampling::grammar
