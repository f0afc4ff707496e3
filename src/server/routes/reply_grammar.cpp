#include "server/routes/reply_grammar.h"

#include "sampling/grammar/json_schema_grammar.h"
#include "sampling/grammar/schema_relaxation.h"
#include "sampling/grammar/tool_call_grammar.h"

namespace ingot::server {
namespace {

namespace grammar = sampling::grammar;
using GrammarOrError = std::variant<std::optional<ReplyGrammar>, ApiError>;

// `schema` without the assertions a grammar cannot express; each one
// dropped is named in `relaxed`, prefixed with `where`.
nlohmann::ordered_json relaxed_schema(const nlohmann::ordered_json& schema,
                                      const std::string& where, std::vector<std::string>& relaxed) {
  grammar::RelaxedSchema result = grammar::relax_schema(schema);
  for (const std::string& dropped : result.dropped) relaxed.push_back(where + dropped);
  return std::move(result.schema);
}

GrammarOrError compiled(GrammarCache& grammars, const GrammarCompileWatch& watch,
                        const std::string& gbnf, const std::string& param, const char* code) {
  auto parsed = grammars.get(gbnf, watch);
  if (!parsed.ok() && parsed.error().kind() == ErrorKind::kCancelled)
    return api_error_from(parsed.error());
  if (!parsed.ok()) {
    return invalid_request(
        "'" + param + "' does not give a usable grammar: " + parsed.error().describe(), param,
        code);
  }
  return ReplyGrammar{std::move(parsed).value(), {}, {}};
}

GrammarOrError schema_grammar(const ResponseFormat& format, GrammarCache& grammars,
                              const GrammarCompileWatch& watch) {
  // A json_schema without a schema accepts any JSON value.
  nlohmann::ordered_json schema =
      format.schema.is_null() ? nlohmann::ordered_json::object() : format.schema;
  std::vector<std::string> relaxed;
  if (!format.strict)
    schema = relaxed_schema(schema, "response_format.json_schema.schema", relaxed);
  auto gbnf = grammar::json_schema_to_gbnf(schema);
  if (!gbnf.ok()) {
    return invalid_request(
        "'response_format.json_schema.schema' cannot be enforced: " + gbnf.error().message(),
        "response_format.json_schema.schema", "unsupported_schema");
  }
  GrammarOrError result =
      compiled(grammars, watch, *gbnf, "response_format.json_schema.schema", "unsupported_schema");
  if (auto* ready = std::get_if<std::optional<ReplyGrammar>>(&result)) {
    (*ready)->relaxed = std::move(relaxed);
  }
  return result;
}

// Each tool's parameters, relaxed unless the tool asks to be strict.
nlohmann::ordered_json relaxed_tools(const nlohmann::ordered_json& tools,
                                     std::vector<std::string>& relaxed) {
  nlohmann::ordered_json out = tools;
  for (size_t i = 0; i < out.size(); ++i) {
    nlohmann::ordered_json& function = out[i]["function"];
    if (!function.is_object() || !function.contains("parameters")) continue;
    if (function.value("strict", false) == true) continue;
    function["parameters"] = relaxed_schema(function["parameters"],
                                            "tools[" + std::to_string(i) + "].parameters", relaxed);
  }
  return out;
}

GrammarOrError tool_grammar(const StructuredOutputFields& request,
                            chat::tool_calls::ToolCallFamily family,
                            const std::optional<grammar::ReasoningBlock>& reasoning,
                            GrammarCache& grammars, const GrammarCompileWatch& watch) {
  grammar::ToolCallGrammarOptions options;
  options.family = family;
  options.reasoning = reasoning;
  std::vector<std::string> relaxed;
  options.tools = relaxed_tools(request.tools, relaxed);
  options.parallel_tool_calls = request.parallel_tool_calls;
  switch (request.tool_choice.mode) {
    case ToolChoice::Mode::kRequired:
      options.choice = grammar::ToolChoice::kRequired;
      break;
    case ToolChoice::Mode::kFunction:
      options.choice = grammar::ToolChoice::kFunction;
      options.function_name = request.tool_choice.function;
      break;
    case ToolChoice::Mode::kAuto:
    case ToolChoice::Mode::kNone:
      options.choice = grammar::ToolChoice::kAuto;
      break;
  }
  auto call = grammar::tool_call_grammar(options);
  if (!call.ok()) {
    return invalid_request("'tools' cannot be enforced: " + call.error().message(), "tools",
                           "unsupported_schema");
  }
  GrammarOrError result = compiled(grammars, watch, call->gbnf, "tools", "unsupported_schema");
  if (auto* ready = std::get_if<std::optional<ReplyGrammar>>(&result)) {
    (*ready)->triggers = call->triggers;
    (*ready)->relaxed = std::move(relaxed);
  }
  return result;
}

}  // namespace

std::variant<std::optional<ReplyGrammar>, ApiError> reply_grammar_for(
    const StructuredOutputFields& request,
    std::optional<chat::tool_calls::ToolCallFamily> tool_family,
    const std::optional<grammar::ReasoningBlock>& reasoning, GrammarCache& grammars,
    const GrammarCompileWatch& watch) {
  if (request.grammar)
    return compiled(grammars, watch, *request.grammar, "grammar", "invalid_grammar");
  // A required call constrains the reply from its first token.
  bool call_required = request.tool_choice.mode == ToolChoice::Mode::kRequired ||
                       request.tool_choice.mode == ToolChoice::Mode::kFunction;
  if (tool_family && call_required)
    return tool_grammar(request, *tool_family, reasoning, grammars, watch);
  switch (request.response_format.kind) {
    case ResponseFormat::Kind::kText:
      // With "auto" the call grammar arms when the model opens a call.
      if (tool_family) return tool_grammar(request, *tool_family, reasoning, grammars, watch);
      return std::optional<ReplyGrammar>();
    // A JSON reply format holds from the first token, so with "auto" tools
    // the model answers in that format rather than calling (docs/api.md).
    case ResponseFormat::Kind::kJsonObject:
      return compiled(grammars, watch, grammar::any_json_object_gbnf(), "response_format",
                      "invalid_grammar");
    case ResponseFormat::Kind::kJsonSchema:
      return schema_grammar(request.response_format, grammars, watch);
  }
  return std::optional<ReplyGrammar>();
}

}  // namespace ingot::server
