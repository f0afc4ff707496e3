#include "sampling/grammar/schema_translator.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <optional>
#include <unordered_set>
#include <vector>

#include "sampling/grammar/gbnf_text.h"
#include "sampling/grammar/literal_trie.h"
#include "sampling/grammar/numeric_ranges.h"
#include "sampling/grammar/regex_gbnf.h"
#include "sampling/grammar/schema_keywords.h"
#include "sampling/grammar/schema_merge.h"
#include "sampling/grammar/schema_ref.h"
#include "sampling/grammar/schema_rule_text.h"
#include "sampling/grammar/string_formats.h"

namespace ingot::sampling::grammar {
namespace {

using namespace schema_rules;

// Bounds that keep a hostile schema from producing a huge grammar.
constexpr int kMaxNesting = 256;
constexpr size_t kMaxGrammarText = 4 << 20;
// Few values read best as alternatives (and as llama.cpp writes them); many
// go into a prefix tree, or the matcher would start one stack per value.
constexpr size_t kTrieFromValues = 32;

bool only_reference(const Json& schema) {
  for (const auto& [keyword, value] : schema.items()) {
    bool ignorable = keyword == "$ref" || keyword == "$defs" || keyword == "definitions" ||
                     is_annotation_keyword(keyword);
    if (!ignorable) return false;
  }
  return true;
}

bool value_has_type(const Json& value, std::string_view type) {
  if (type == "string") return value.is_string();
  if (type == "number") return value.is_number();
  if (type == "integer") {
    return value.is_number_integer() ||
           (value.is_number_float() && std::floor(value.get<double>()) == value.get<double>());
  }
  if (type == "boolean") return value.is_boolean();
  if (type == "null") return value.is_null();
  if (type == "object") return value.is_object();
  if (type == "array") return value.is_array();
  return false;
}

std::vector<std::string> declared_types(const Json& schema, const std::string& path) {
  static const std::vector<std::string_view> kKnown = {"string", "number", "integer", "boolean",
                                                       "null",   "object", "array"};
  std::vector<std::string> types;
  auto add = [&](const Json& type) {
    if (!type.is_string()) fail_invalid("'type' must be a string or an array of strings", path);
    std::string name = type.get<std::string>();
    if (std::find(kKnown.begin(), kKnown.end(), name) == kKnown.end()) {
      fail_invalid("unknown type '" + name + "'", path);
    }
    if (std::find(types.begin(), types.end(), name) == types.end()) types.push_back(name);
  };
  const Json& type = schema["type"];
  if (type.is_array()) {
    if (type.empty()) fail_invalid("'type' is an empty array", path);
    for (const Json& item : type) add(item);
  } else {
    add(type);
  }
  return types;
}

// The types a schema without `type` constrains, judged by its keywords.
std::vector<std::string> implied_types(const Json& schema) {
  auto has_any = [&](std::initializer_list<const char*> keywords) {
    return std::any_of(keywords.begin(), keywords.end(),
                       [&](const char* keyword) { return schema.contains(keyword); });
  };
  std::vector<std::string> types;
  if (has_any({"properties", "required", "additionalProperties"})) types.push_back("object");
  if (has_any({"items", "prefixItems", "additionalItems", "minItems", "maxItems"}))
    types.push_back("array");
  if (has_any({"minLength", "maxLength", "pattern", "format"})) types.push_back("string");
  if (has_any({"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"}))
    types.push_back("number");
  return types;
}

struct Bound {
  double value;
  bool exclusive;
};

// The tighter of `minimum`/`exclusiveMinimum` (or the maxima), including
// draft-04's boolean exclusiveMinimum.
std::optional<Bound> bound(const Json& schema, const char* inclusive_keyword,
                           const char* exclusive_keyword, bool lower, const std::string& path) {
  std::optional<Bound> out;
  auto tighten = [&](Bound candidate) {
    if (!out) {
      out = candidate;
      return;
    }
    bool tighter = lower ? candidate.value > out->value : candidate.value < out->value;
    if (tighter) {
      out = candidate;
    } else if (candidate.value == out->value) {
      out->exclusive = out->exclusive || candidate.exclusive;
    }
  };
  bool draft4_exclusive = false;
  if (schema.contains(exclusive_keyword)) {
    const Json& value = schema[exclusive_keyword];
    if (value.is_boolean()) {
      draft4_exclusive = value.get<bool>();
    } else if (value.is_number()) {
      tighten({value.get<double>(), true});
    } else {
      fail_invalid(fmt::format("'{}' must be a number", exclusive_keyword), path);
    }
  }
  if (schema.contains(inclusive_keyword)) {
    const Json& value = schema[inclusive_keyword];
    if (!value.is_number())
      fail_invalid(fmt::format("'{}' must be a number", inclusive_keyword), path);
    tighten({value.get<double>(), draft4_exclusive});
  }
  return out;
}

// Exactly `value`, with the same bounded whitespace as any other JSON
// inside objects and arrays.
std::string value_gbnf(const Json& value, const std::string& path) {
  if (!value.is_object() && !value.is_array()) return gbnf_literal(json_text(value, path));
  std::string out = value.is_object() ? "\"{\" ws" : "\"[\" ws";
  bool first = true;
  for (const auto& [key, item] : value.items()) {
    if (!first) out += " \",\" ws";
    first = false;
    if (value.is_object())
      append_separated(out, " ", gbnf_literal(json_text(Json(key), path)) + " ws \":\" ws");
    append_separated(out, " ", value_gbnf(item, path) + " ws");
  }
  out += value.is_object() ? " \"}\"" : " \"]\"";
  return std::string("( ").append(out).append(" )");
}

}  // namespace

Result<std::string> SchemaTranslator::translate(std::string_view hint) {
  try {
    ref_rules_.clear();
    std::string name = rules_.reserve(hint);
    ref_rules_["#"] = name;
    rules_.define(name, body_for(document_, name, "#"));
    return name;
  } catch (const ErrorException& error) {
    return error.error();
  } catch (const nlohmann::json::exception& error) {
    return invalid_argument(std::string("malformed schema: ") + error.what());
  }
}

std::string SchemaTranslator::rule_for(const Json& schema, const std::string& name,
                                       const std::string& path) {
  if (schema.is_object() && schema.contains("$ref") && only_reference(schema)) {
    if (!schema["$ref"].is_string()) fail_invalid("'$ref' must be a string", path);
    return ref_rule(schema["$ref"].get<std::string>(), path);
  }
  std::string rule = rules_.intern(name, body_for(schema, name, path));
  if (rules_.text_size() > kMaxGrammarText) {
    fail(Error(ErrorKind::kResourceExhausted, "the grammar for this schema exceeds 4 MB"));
  }
  return rule;
}

std::string SchemaTranslator::body_for(const Json& schema, const std::string& name,
                                       const std::string& path) {
  struct DepthGuard {
    int& depth;
    explicit DepthGuard(int& d) : depth(d) { ++depth; }
    ~DepthGuard() { --depth; }
  } guard(depth_);
  if (depth_ > kMaxNesting) fail_invalid("schema nested too deeply", path);

  if (schema.is_boolean()) {
    if (!schema.get<bool>()) fail_invalid("the schema false matches no value", path);
    return rules_.use_primitive(json_rule::kValue);
  }
  if (!schema.is_object()) fail_invalid("a schema must be an object or a boolean", path);
  if (Status status = check_keywords(schema, path); !status.ok()) fail(status.error());

  if (schema.contains("$ref") || schema.contains("allOf")) {
    if (schema.contains("$ref") && only_reference(schema)) return rule_for(schema, name, path);
    RefResolver resolver = [this, &path](const std::string& ref) -> Result<Json> {
      try {
        return resolve(ref, path);
      } catch (const ErrorException& error) {
        return error.error();
      }
    };
    Result<Json> flat = flatten_all_of(schema, resolver, path);
    if (!flat.ok()) fail(flat.error());
    return body_for(*flat, name, path);
  }
  if (schema.contains("anyOf") || schema.contains("oneOf"))
    return branches_body(schema, name, path);
  if (schema.contains("const") || schema.contains("enum")) return literal_body(schema, name, path);
  return typed_body(schema, name, path);
}

std::string SchemaTranslator::ref_rule(const std::string& ref, const std::string& path) {
  if (auto found = ref_rules_.find(ref); found != ref_rules_.end()) return found->second;
  Json target = resolve(ref, path);
  std::string hint = ref.substr(ref.find_last_of('/') + 1);
  std::string name = rules_.reserve(hint);
  ref_rules_[ref] = name;
  rules_.define(name, body_for(target, name, ref));
  return name;
}

SchemaTranslator::Json SchemaTranslator::resolve(const std::string& ref,
                                                 const std::string& path) const {
  std::optional<std::string> pointer = ref_fragment(ref);
  if (!pointer) {
    fail(unsupported("$ref '" + ref +
                     "': only references inside the schema (#/...) are supported (at " + path +
                     ")"));
  }
  if (!is_json_pointer(*pointer)) {
    fail(unsupported("$ref '" + ref + "': anchors are not supported, use a JSON pointer (at " +
                     path + ")"));
  }
  try {
    return document_.at(Json::json_pointer(*pointer));
  } catch (const nlohmann::json::exception&) {
    fail_invalid("$ref '" + ref + "' points to nothing", path);
  }
}

std::string SchemaTranslator::branches_body(const Json& schema, const std::string& name,
                                            const std::string& path) {
  if (schema.contains("anyOf") && schema.contains("oneOf")) {
    fail(unsupported("'anyOf' together with 'oneOf' in one schema is not supported (at " + path +
                     ")"));
  }
  const char* keyword = schema.contains("anyOf") ? "anyOf" : "oneOf";
  const Json& branches = schema[keyword];
  if (!branches.is_array() || branches.empty()) {
    fail_invalid(fmt::format("'{}' must be a non-empty array", keyword), path);
  }
  Json siblings = Json::object();
  for (const auto& [key, value] : schema.items()) {
    bool sibling =
        key != keyword && key != "$defs" && key != "definitions" && !is_annotation_keyword(key);
    if (sibling) siblings[key] = value;
  }
  std::vector<std::string> alternatives;
  for (size_t i = 0; i < branches.size(); ++i) {
    std::string branch_path = join_path(path, std::string(keyword) + "/" + std::to_string(i));
    Json branch = branches[i];
    // {A, anyOf: [B, C]} is anyOf: [A and B, A and C].
    if (!siblings.empty()) branch = Json{{"allOf", Json::array({siblings, branch})}};
    std::string rule = rule_for(branch, name + "-" + std::to_string(i + 1), branch_path);
    if (std::find(alternatives.begin(), alternatives.end(), rule) == alternatives.end()) {
      alternatives.push_back(rule);
    }
  }
  return join_alternatives(alternatives);
}

std::string SchemaTranslator::literal_body(const Json& schema, const std::string& name,
                                           const std::string& path) {
  std::vector<std::string> types;
  if (schema.contains("type")) types = declared_types(schema, path);
  auto allowed = [&](const Json& value) {
    return types.empty() || std::any_of(types.begin(), types.end(), [&](const std::string& type) {
             return value_has_type(value, type);
           });
  };
  Json values = Json::array();
  if (schema.contains("const")) {
    values.push_back(schema["const"]);
    if (schema.contains("enum")) {
      const Json& list = schema["enum"];
      if (!list.is_array() || std::find(list.begin(), list.end(), schema["const"]) == list.end()) {
        fail_invalid("'const' is not one of 'enum'", path);
      }
    }
  } else {
    if (!schema["enum"].is_array() || schema["enum"].empty())
      fail_invalid("'enum' must be a non-empty array", path);
    values = schema["enum"];
  }
  std::vector<std::string> alternatives;  // every value's, in the schema's order
  std::vector<std::string> structured;    // the objects' and arrays' alone
  std::vector<std::string> scalar_texts;  // the other values' JSON texts
  std::unordered_set<std::string> seen;
  for (const Json& value : values) {
    if (!allowed(value)) continue;
    if (value.is_structured()) rules_.use_primitive(json_rule::kWs);
    std::string literal = value_gbnf(value, path);
    if (!seen.insert(literal).second) continue;
    if (value.is_structured()) {
      structured.push_back(literal);
    } else {
      scalar_texts.push_back(json_text(value, path));
    }
    alternatives.push_back(std::move(literal));
  }
  if (alternatives.empty()) fail_invalid("no 'enum'/'const' value has the schema's type", path);
  if (scalar_texts.size() < kTrieFromValues) return join_alternatives(alternatives);
  structured.push_back(literal_trie_body(std::move(scalar_texts), rules_, name));
  return join_alternatives(structured);
}

std::string SchemaTranslator::typed_body(const Json& schema, const std::string& name,
                                         const std::string& path) {
  std::vector<std::string> types =
      schema.contains("type") ? declared_types(schema, path) : implied_types(schema);
  if (types.empty()) return rules_.use_primitive(json_rule::kValue);
  bool has_number = std::find(types.begin(), types.end(), "number") != types.end();
  std::vector<std::string> alternatives;
  for (const std::string& type : types) {
    if (type == "integer" && has_number) continue;  // number already covers it
    alternatives.push_back(type_body(type, schema, name, path));
  }
  return join_alternatives(alternatives);
}

std::string SchemaTranslator::type_body(const std::string& type, const Json& schema,
                                        const std::string& name, const std::string& path) {
  if (type == "string") return string_body(schema, path);
  if (type == "integer") return integer_body(schema, path);
  if (type == "number") return number_body(schema, path);
  if (type == "boolean") return rules_.use_primitive(json_rule::kBoolean);
  if (type == "null") return rules_.use_primitive(json_rule::kNull);
  if (type == "object") return object_body(schema, name, path);
  return array_body(schema, name, path);
}

std::string SchemaTranslator::string_body(const Json& schema, const std::string& path) {
  bool has_lengths = schema.contains("minLength") || schema.contains("maxLength");
  if (schema.contains("format")) {
    if (!schema["format"].is_string()) fail_invalid("'format' must be a string", path);
    std::string format = schema["format"].get<std::string>();
    std::optional<std::vector<GbnfRule>> format_rules = string_format_rules(format);
    if (!format_rules) {
      std::string supported;
      for (std::string_view name : supported_string_formats()) {
        append_separated(supported, ", ", name);
      }
      fail(unsupported("JSON Schema format '" + format +
                       "' is not supported (supported: " + supported + "; at " + path + ")"));
    }
    if (schema.contains("pattern") || has_lengths) {
      fail(unsupported(
          "'format' together with 'pattern', 'minLength' or 'maxLength' is not supported (at " +
          path + ")"));
    }
    return quoted(rules_.use_fixed(*format_rules));
  }
  if (schema.contains("pattern")) {
    if (!schema["pattern"].is_string()) fail_invalid("'pattern' must be a string", path);
    if (has_lengths) {
      fail(unsupported("'pattern' together with 'minLength' or 'maxLength' is not supported (at " +
                       path + ")"));
    }
    Result<std::string> content =
        regex_to_gbnf(schema["pattern"].get<std::string>(), rules_.use_primitive(json_rule::kChar));
    if (!content.ok()) {
      Error error = content.error();
      fail(Error(error.kind(), error.message() + " (at " + path + "/pattern)"));
    }
    return quoted(content->empty() ? "" : "( " + *content + " )");
  }
  std::optional<uint64_t> min = count_keyword(schema, "minLength", path);
  std::optional<uint64_t> max = count_keyword(schema, "maxLength", path);
  if (!min && !max) return rules_.use_primitive(json_rule::kString);
  uint64_t low = min.value_or(0);
  if (max && *max < low) fail_invalid("'minLength' is larger than 'maxLength'", path);
  if (low > kMaxSchemaCount)
    fail(unsupported("'minLength' above 10000 is not supported (at " + path + ")"));
  if (max) max = std::min(*max, std::max(low, kMaxSchemaCount));
  return quoted(gbnf_repeat(rules_.use_primitive(json_rule::kChar), low, max));
}

std::string SchemaTranslator::integer_body(const Json& schema, const std::string& path) {
  std::optional<Bound> lower = bound(schema, "minimum", "exclusiveMinimum", true, path);
  std::optional<Bound> upper = bound(schema, "maximum", "exclusiveMaximum", false, path);
  if (!lower && !upper) return rules_.use_primitive(json_rule::kInteger);
  std::optional<NumericBound> low;
  std::optional<NumericBound> high;
  // A fractional bound moves to the nearest integer inside the range.
  if (lower) {
    double whole = std::ceil(lower->value);
    low = NumericBound{clamp_to_int64(whole), lower->exclusive && whole == lower->value};
  }
  if (upper) {
    double whole = std::floor(upper->value);
    high = NumericBound{clamp_to_int64(whole), upper->exclusive && whole == upper->value};
  }
  Result<std::string> body = integer_range_gbnf(low, high);
  if (!body.ok()) fail_invalid(body.error().message(), path);
  return *body;
}

std::string SchemaTranslator::number_body(const Json& schema, const std::string& path) {
  std::optional<Bound> lower = bound(schema, "minimum", "exclusiveMinimum", true, path);
  std::optional<Bound> upper = bound(schema, "maximum", "exclusiveMaximum", false, path);
  if (!lower && !upper) return rules_.use_primitive(json_rule::kNumber);
  auto integral = [&](const std::optional<Bound>& b) -> std::optional<NumericBound> {
    if (!b) return std::nullopt;
    if (std::floor(b->value) != b->value) {
      fail(unsupported("a fractional bound (" + json_text(Json(b->value), path) +
                       ") on a number is not supported: bounds on numbers must be integers (at " +
                       path + ")"));
    }
    return NumericBound{clamp_to_int64(b->value), b->exclusive};
  };
  Result<std::string> body = number_range_gbnf(integral(lower), integral(upper));
  if (!body.ok()) fail_invalid(body.error().message(), path);
  return *body;
}

}  // namespace ingot::sampling::grammar
