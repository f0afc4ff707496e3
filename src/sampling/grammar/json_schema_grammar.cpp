#include "sampling/grammar/json_schema_grammar.h"

#include <functional>

#include "sampling/grammar/gbnf_text.h"
#include "sampling/grammar/schema_translator.h"

namespace ingot::sampling::grammar {

Result<std::string> JsonSchemaGrammarBuilder::add_schema(const nlohmann::ordered_json& schema,
                                                         std::string_view name_hint) {
  return SchemaTranslator(rules_, schema).translate(name_hint);
}

void JsonSchemaGrammarBuilder::add_rule(std::string name, std::string body) {
  rules_.set_raw(std::move(name), std::move(body));
}

std::string JsonSchemaGrammarBuilder::add_text_without(std::string_view close) {
  std::string name = "text-until-" + gbnf_rule_name(close) + "-" +
                     std::to_string(std::hash<std::string_view>{}(close) % 1000000);
  return gbnf_text_without(close, name, [this](std::string rule, std::string body) {
    add_rule(std::move(rule), std::move(body));
  });
}

std::string JsonSchemaGrammarBuilder::build(std::string_view root_body) const {
  return rules_.text(root_body);
}

Result<std::string> json_schema_to_gbnf(const nlohmann::ordered_json& schema) {
  JsonSchemaGrammarBuilder builder;
  INGOT_ASSIGN_OR_RETURN(std::string value, builder.add_schema(schema, "value"));
  return builder.build(value);
}

std::string any_json_object_gbnf() {
  JsonSchemaGrammarBuilder builder;
  return builder.build(builder.use_primitive(json_rule::kObject));
}

}  // namespace ingot::sampling::grammar
