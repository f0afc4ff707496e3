#pragma once
// JSON Schema to GBNF: the grammar that makes a model's output a JSON value
// valid against a schema (response_format json_schema, tool arguments).
// What is supported and how open ends are closed: docs/json-schema.md and
// schema_translator.h. An unsupported keyword, format or pattern construct
// is an error (kUnsupported) that names it; annotation keywords are
// ignored.

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "sampling/grammar/gbnf_rule_set.h"
#include "util/status.h"

namespace ingot::sampling::grammar {

// Builds one GBNF grammar from one or more schemas; rules are named after
// the schema path and deduplicated.
class JsonSchemaGrammarBuilder {
 public:
  // The name of a rule matching one JSON value valid against `schema`
  // (its own document for `$ref`s). `name_hint` prefixes its rules.
  Result<std::string> add_schema(const nlohmann::ordered_json& schema, std::string_view name_hint);

  // Raw GBNF for callers that wrap values (tool-call syntax); replaces a
  // rule of the same name. Pick names add_schema does not produce (its
  // names start with the hints given to it).
  void add_rule(std::string name, std::string body);

  // The name of a rule matching any text that does not contain `close`
  // (gbnf_text_without), one set of rules per close.
  std::string add_text_without(std::string_view close);

  // The rule set's primitives for wrappers: "ws", "json-string", ...
  std::string use_primitive(std::string_view name) { return rules_.use_primitive(name); }

  // The whole grammar: `root ::= <root_body>` and every rule.
  std::string build(std::string_view root_body) const;

 private:
  GbnfRuleSet rules_;
};

// A grammar whose root is one JSON value valid against `schema`.
Result<std::string> json_schema_to_gbnf(const nlohmann::ordered_json& schema);

// A grammar for any JSON object (response_format {"type":"json_object"}).
std::string any_json_object_gbnf();

}  // namespace ingot::sampling::grammar
