#pragma once
// Turns one JSON Schema document into GBNF rules in a GbnfRuleSet. Rules
// are named after the schema path (hint-properties-name becomes
// "hint-name", array items "hint-item", anyOf branches "hint-1", ...), and
// `$ref` targets after their definition, one rule per target so that
// recursive schemas become recursive rules.
//
// Where JSON Schema leaves things open the grammar generates a subset of
// the valid values, so that everything generated validates:
//  - an object that declares `properties` but no `additionalProperties`
//    gets only its declared properties (OpenAI's strict mode says the
//    same explicitly); an object without `properties` takes any members;
//  - properties come in the declared order, required ones always,
//    optional ones possibly omitted, extra ones (when allowed) last;
//  - `prefixItems` without `items` allows no further items, and every
//    prefix item is generated unless maxItems says fewer;
//  - a schema without `type` gets the types its keywords imply
//    (`properties` -> object, `items` -> array, `pattern` -> string, ...)
//    or any JSON value when there are none;
//  - `enum` and `const` values are matched exactly, objects and arrays
//    among them with the usual whitespace and their members in order;
//  - `oneOf` is translated as `anyOf`: branches are expected to be
//    disjoint, as they are in practice (type- or const-discriminated).
// See docs/json-schema.md for the keyword list and the pattern subset.

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "sampling/grammar/gbnf_rule_set.h"
#include "util/status.h"

namespace ingot::sampling::grammar {

// GBNF repetition counts above this are refused by the parser; larger
// maxLength/maxItems are tightened to it (still valid output), a larger
// minLength/minItems is refused.
inline constexpr uint64_t kMaxSchemaCount = 10'000;

class SchemaTranslator {
 public:
  SchemaTranslator(GbnfRuleSet& rules, const nlohmann::ordered_json& document)
      : rules_(rules), document_(document) {}

  // The name of a rule that matches one JSON value valid against the
  // whole document; `hint` names the rules.
  Result<std::string> translate(std::string_view hint);

 private:
  using Json = nlohmann::ordered_json;

  std::string rule_for(const Json& schema, const std::string& name, const std::string& path);
  std::string body_for(const Json& schema, const std::string& name, const std::string& path);
  std::string ref_rule(const std::string& ref, const std::string& path);
  Json resolve(const std::string& ref, const std::string& path) const;

  std::string branches_body(const Json& schema, const std::string& name, const std::string& path);
  std::string literal_body(const Json& schema, const std::string& name, const std::string& path);
  std::string typed_body(const Json& schema, const std::string& name, const std::string& path);
  std::string type_body(const std::string& type, const Json& schema, const std::string& name,
                        const std::string& path);
  std::string string_body(const Json& schema, const std::string& path);
  std::string integer_body(const Json& schema, const std::string& path);
  std::string number_body(const Json& schema, const std::string& path);
  std::string object_body(const Json& schema, const std::string& name, const std::string& path);
  std::string array_body(const Json& schema, const std::string& name, const std::string& path);
  std::string other_key_rule(const Json& properties, const std::string& name);

  GbnfRuleSet& rules_;
  const Json& document_;
  std::map<std::string, std::string> ref_rules_;  // $ref -> its rule
  int depth_ = 0;
};

}  // namespace ingot::sampling::grammar
