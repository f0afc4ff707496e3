#include "sampling/grammar/json_primitives.h"

#include <map>

namespace ingot::sampling::grammar {
namespace {

struct Primitive {
  std::string_view body;
  std::vector<std::string_view> needs;
};

const std::map<std::string_view, Primitive>& primitives() {
  using namespace json_rule;
  static const std::map<std::string_view, Primitive> table = {
      {kWs, {R"(( " " | "\n" [ \t]{0,20} )?)", {}}},
      // Surrogates are no characters: neither raw (UTF-8 cannot encode
      // them) nor as \u escapes (strict parsers reject lone ones).
      {kChar,
       {R"([ !#-\[\]-\uD7FF\uE000-\U0010FFFF] | "\\" ( ["\\/bfnrt] | "u" ( [0-9a-cA-Ce-fE-F] [0-9a-fA-F]{3} | [dD] [0-7] [0-9a-fA-F]{2} ) ))",
        {}}},
      {kString, {R"("\"" json-char* "\"")", {kChar}}},
      {kInteger, {R"("-"? ( "0" | [1-9] [0-9]{0,14} ))", {}}},
      {kFraction, {R"("." [0-9]{1,16})", {}}},
      {kNumber,
       {R"(json-integer json-fraction? ( [eE] [-+]? [0-9]{1,2} )?)", {kInteger, kFraction}}},
      {kBoolean, {R"("true" | "false")", {}}},
      {kNull, {R"("null")", {}}},
      {kValue,
       {"json-object | json-array | json-string | json-number | json-boolean | json-null",
        {kObject, kArray, kString, kNumber, kBoolean, kNull}}},
      {kObject,
       {R"("{" ws ( json-string ws ":" ws json-value ws ( "," ws json-string ws ":" ws json-value ws )* )? "}")",
        {kWs, kString, kValue}}},
      {kArray, {R"("[" ws ( json-value ws ( "," ws json-value ws )* )? "]")", {kWs, kValue}}},
  };
  return table;
}

void collect(std::string_view name, std::vector<GbnfRule>& out) {
  for (const GbnfRule& rule : out) {
    if (rule.name == name) return;
  }
  auto found = primitives().find(name);
  if (found == primitives().end()) return;
  // Placed before its dependencies are visited so that cycles
  // (value -> object -> value) terminate.
  out.push_back({std::string(name), std::string(found->second.body)});
  for (std::string_view need : found->second.needs) collect(need, out);
}

}  // namespace

std::vector<GbnfRule> json_primitive_rules(std::string_view name) {
  std::vector<GbnfRule> out;
  collect(name, out);
  return out;
}

const std::vector<std::string_view>& json_primitive_names() {
  static const std::vector<std::string_view> names = [] {
    std::vector<std::string_view> all;
    for (const auto& [name, primitive] : primitives()) all.push_back(name);
    return all;
  }();
  return names;
}

}  // namespace ingot::sampling::grammar
