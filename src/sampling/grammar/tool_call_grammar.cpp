#include "sampling/grammar/tool_call_grammar.h"

#include <cctype>
#include <string_view>

#include "chat/tool_calls/call_format.h"
#include "sampling/grammar/format_call_grammar.h"
#include "sampling/grammar/gbnf_text.h"
#include "sampling/grammar/json_schema_grammar.h"

namespace ingot::sampling::grammar {
namespace {

using chat::tool_calls::ToolCallFamily;
using Json = nlohmann::ordered_json;

using Tool = GrammarTool;

// OpenAI's rule for function names, which also keeps every family's syntax
// (Mistral's bare name before [ARGS]) unambiguous.
bool is_valid_function_name(std::string_view name) {
  if (name.empty() || name.size() > 64) return false;
  for (char c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '-') return false;
  }
  return true;
}

Result<std::vector<Tool>> read_tools(const Json& tools) {
  if (!tools.is_array() || tools.empty()) {
    return invalid_argument("tools must be a non-empty array");
  }
  std::vector<Tool> result;
  for (const Json& tool : tools) {
    if (!tool.is_object() || tool.value("type", "function") != "function" ||
        !tool.contains("function") || !tool["function"].is_object()) {
      return invalid_argument("each tool must be {\"type\": \"function\", \"function\": {...}}");
    }
    const Json& function = tool["function"];
    if (!function.contains("name") || !function["name"].is_string() ||
        !is_valid_function_name(function["name"].get<std::string>())) {
      return invalid_argument("a function name must be 1-64 letters, digits, '_' or '-'");
    }
    Json parameters = function.value("parameters", Json::object());
    if (!parameters.is_object()) {
      return invalid_argument("function parameters must be a JSON Schema object");
    }
    if (parameters.empty()) parameters = Json{{"type", "object"}};
    result.push_back({function["name"].get<std::string>(), std::move(parameters)});
  }
  return result;
}

// The families' spelling of one call around its arguments rule.
struct CallSpelling {
  std::string before_name;
  std::string between;  // after the name, before the arguments
  std::string after;
};

CallSpelling spelling(ToolCallFamily family) {
  switch (family) {
    case ToolCallFamily::kHermes:
      return {"<tool_call>\n{\"name\": \"", "\", \"arguments\": ", "}\n</tool_call>"};
    case ToolCallFamily::kLlama3:
      return {"{\"name\": \"", "\", \"parameters\": ", "}"};
    case ToolCallFamily::kMistralTagged:
      return {"[TOOL_CALLS]", "[ARGS]", ""};
    case ToolCallFamily::kHarmony:
      return {"<|channel|>commentary to=functions.", " <|constrain|>json<|message|>", ""};
    default:
      return {"{\"name\": \"", "\", \"arguments\": ", "}"};
  }
  return {};
}

// How calls follow each other, and what encloses them all.
struct CallList {
  std::string open;
  std::string separator;
  std::string close;
};

CallList call_list(ToolCallFamily family) {
  switch (family) {
    case ToolCallFamily::kHermes:
    case ToolCallFamily::kLlama3:
      return {"", "\n", ""};
    case ToolCallFamily::kMistralTagged:
    case ToolCallFamily::kHarmony:
      return {"", "", ""};
    case ToolCallFamily::kMistralArray:
      return {"[TOOL_CALLS][", ", ", "]"};
    default:
      return {"{\"tool_calls\": [", ", ", "]}"};
  }
  return {};
}

std::vector<std::string> triggers(ToolCallFamily family) {
  switch (family) {
    case ToolCallFamily::kHermes:
      return {"<tool_call>"};
    case ToolCallFamily::kLlama3:
      return {"<|python_tag|>", "{\"name\""};
    case ToolCallFamily::kMistralArray:
    case ToolCallFamily::kMistralTagged:
      return {"[TOOL_CALLS]"};
    case ToolCallFamily::kHarmony:
      return {"<|channel|>commentary to=functions."};
    default:
      return {"{\"tool_calls\""};
  }
  return {};
}

// The reasoning before a required call: closed when the prompt opened it,
// else optional; the blank lines models write after it.
std::string reasoning_prefix(const std::optional<ReasoningBlock>& reasoning,
                             JsonSchemaGrammarBuilder& builder) {
  if (!reasoning || reasoning->close.empty()) return "";
  // At most the blank line models write after the block: more would let
  // a random draw write whitespace forever.
  std::string block = builder.add_text_without(reasoning->close) + " " +
                      gbnf_literal(reasoning->close) + " " + gbnf_repeat("\"\\n\"", 0, 2);
  if (reasoning->opened) return block + " ";
  return "( " + gbnf_literal(reasoning->open) + " " + block + " )? ";
}

std::string optional_literal(std::string_view text) {
  return text.empty() ? std::string() : gbnf_literal(text) + " ";
}

}  // namespace

Result<ToolCallGrammar> tool_call_grammar(const ToolCallGrammarOptions& options) {
  INGOT_ASSIGN_OR_RETURN(std::vector<Tool> tools, read_tools(options.tools));
  if (options.choice == ToolChoice::kFunction) {
    std::erase_if(tools, [&](const Tool& tool) { return tool.name != options.function_name; });
    if (tools.empty()) {
      return invalid_argument("tool_choice names function '" + options.function_name +
                              "', which is not among the tools");
    }
  }

  JsonSchemaGrammarBuilder builder;
  bool one_call = !options.parallel_tool_calls || options.choice == ToolChoice::kFunction;
  if (const chat::tool_calls::CallFormat* format = chat::tool_calls::call_format(options.family)) {
    INGOT_ASSIGN_OR_RETURN(std::string root, format_calls_rule(*format, tools, one_call, builder));
    ToolCallGrammar grammar;
    if (options.choice == ToolChoice::kAuto) {
      grammar.triggers = format_triggers(*format);
    } else {
      root = reasoning_prefix(options.reasoning, builder) + root;
    }
    grammar.gbnf = builder.build(root);
    return grammar;
  }
  CallSpelling spell = spelling(options.family);
  std::string alternatives;
  // Rule names carry the tool's index: names differing only in '_' and '-'
  // map to the same rule-name spelling.
  for (size_t i = 0; i < tools.size(); ++i) {
    const Tool& tool = tools[i];
    std::string suffix = std::to_string(i) + "-" + gbnf_rule_name(tool.name);
    Result<std::string> arguments = builder.add_schema(tool.parameters, "args-" + suffix);
    if (!arguments.ok()) {
      Error error = arguments.error();
      error.add_context("in the parameters of tool '" + tool.name + "'");
      return error;
    }
    std::string body = gbnf_literal(spell.before_name + tool.name + spell.between) + " " +
                       *arguments + " " + optional_literal(spell.after);
    std::string rule = "call-" + suffix;
    builder.add_rule(rule, body);
    if (!alternatives.empty()) alternatives += " | ";
    alternatives += rule;
  }
  builder.add_rule("any-call", alternatives);

  CallList list = call_list(options.family);
  // A harmony call ends its reply (<|call|> ends the turn): one at most.
  one_call = one_call || options.family == ToolCallFamily::kHarmony;
  std::string calls = "any-call";
  if (!one_call) calls += " ( " + optional_literal(list.separator) + "any-call )*";
  std::string root = optional_literal(list.open) + calls + " " + optional_literal(list.close);

  ToolCallGrammar grammar;
  if (options.choice == ToolChoice::kAuto) {
    grammar.triggers = triggers(options.family);
    if (options.family == ToolCallFamily::kLlama3) root = "\"<|python_tag|>\"? " + root;
  } else if (options.family != ToolCallFamily::kHarmony) {
    root = reasoning_prefix(options.reasoning, builder) + root;
  }
  grammar.gbnf = builder.build(root);
  return grammar;
}

}  // namespace ingot::sampling::grammar
