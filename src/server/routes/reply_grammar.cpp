#include "server/routes/reply_grammar.h"

#include "sampling/grammar/gbnf_parser.h"
#include "sampling/grammar/json_schema_grammar.h"

namespace ingot::server {
namespace {

namespace grammar = sampling::grammar;
using GrammarOrError = std::variant<std::optional<ReplyGrammar>, ApiError>;

GrammarOrError compiled(const std::string& gbnf, const std::string& param, const char* code) {
  auto parsed = grammar::parse_gbnf(gbnf);
  if (!parsed.ok()) {
    return invalid_request(
        "'" + param + "' does not give a usable grammar: " + parsed.error().describe(), param,
        code);
  }
  return ReplyGrammar{std::move(parsed).value(), {}};
}

GrammarOrError schema_grammar(const ResponseFormat& format) {
  // A json_schema without a schema accepts any JSON value.
  nlohmann::ordered_json schema =
      format.schema.is_null() ? nlohmann::ordered_json::object() : format.schema;
  auto gbnf = grammar::json_schema_to_gbnf(schema);
  if (!gbnf.ok()) {
    return invalid_request(
        "'response_format.json_schema.schema' cannot be enforced: " + gbnf.error().message(),
        "response_format.json_schema.schema", "unsupported_schema");
  }
  return compiled(*gbnf, "response_format.json_schema.schema", "unsupported_schema");
}

}  // namespace

std::variant<std::optional<ReplyGrammar>, ApiError> reply_grammar_for(
    const ChatRequest& request, std::optional<chat::tool_calls::ToolCallFamily> tool_family) {
  (void)tool_family;  // tool-call grammars: see tool_call_grammar (wired with it)
  if (request.grammar) return compiled(*request.grammar, "grammar", "invalid_grammar");
  switch (request.response_format.kind) {
    case ResponseFormat::Kind::kText:
      return std::optional<ReplyGrammar>();
    case ResponseFormat::Kind::kJsonObject:
      return compiled(grammar::any_json_object_gbnf(), "response_format", "invalid_grammar");
    case ResponseFormat::Kind::kJsonSchema:
      return schema_grammar(request.response_format);
  }
  return std::optional<ReplyGrammar>();
}

}  // namespace ingot::server
