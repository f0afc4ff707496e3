#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <map>
#include <unordered_set>
#include <vector>

#include "sampling/grammar/gbnf_text.h"
#include "sampling/grammar/schema_keywords.h"
#include "sampling/grammar/schema_rule_text.h"
#include "sampling/grammar/schema_translator.h"

// The translator's objects and arrays: members in declared order with the
// optional ones skippable, keys outside the declared ones, tuples and
// bounded item counts.

namespace ingot::sampling::grammar {
using namespace schema_rules;

namespace {

// Bounds on the declared names a key outside them must avoid.
constexpr size_t kMaxExcludedNameLength = 1024;
constexpr size_t kMaxExcludedNamesLength = 65536;
// Characters of a name per rule of the other-key trie.
constexpr size_t kOtherKeyGroupsPerRule = 64;

}  // namespace

std::string SchemaTranslator::object_body(const Json& schema, const std::string& name,
                                          const std::string& path) {
  struct Property {
    std::string key;
    Json schema;
    bool required = false;
  };
  const Json empty = Json::object();
  const Json& properties = schema.contains("properties") ? schema["properties"] : empty;
  if (!properties.is_object()) fail_invalid("'properties' must be an object", path);
  std::vector<std::string> required;
  if (schema.contains("required")) {
    if (!schema["required"].is_array())
      fail_invalid("'required' must be an array of strings", path);
    for (const Json& key : schema["required"]) {
      if (!key.is_string()) fail_invalid("'required' must be an array of strings", path);
      required.push_back(key.get<std::string>());
    }
  }
  Json additional = schema.contains("additionalProperties") ? schema["additionalProperties"]
                                                            : Json(!schema.contains("properties"));
  bool open = additional != Json(false);
  if (!additional.is_boolean() && !additional.is_object()) {
    fail_invalid("'additionalProperties' must be a boolean or a schema", path);
  }

  // Sets, not scans: a schema of ten thousand properties costs ten
  // thousand lookups, not their square.
  const std::unordered_set<std::string> required_keys(required.begin(), required.end());
  std::vector<Property> declared;
  std::unordered_set<std::string> declared_keys;
  for (const auto& [key, property_schema] : properties.items()) {
    declared.push_back({key, property_schema, required_keys.contains(key)});
    declared_keys.insert(key);
  }
  for (const std::string& key : required) {
    if (declared_keys.contains(key)) continue;
    if (!open)
      fail_invalid("required property '" + key + "' is not allowed by additionalProperties: false",
                   path);
    declared.push_back({key, additional, true});
    declared_keys.insert(key);
  }

  std::vector<std::string> members;  // key ws ":" ws value
  for (const Property& property : declared) {
    std::string value_rule = rule_for(property.schema, name + "-" + property.key,
                                      join_path(path, "properties/" + property.key));
    members.push_back(gbnf_literal(json_text(Json(property.key), path)) + " ws \":\" ws " +
                      value_rule);
  }
  std::string extra_member;
  if (open) {
    std::string key_rule = rules_.use_primitive(json_rule::kString);
    if (!declared.empty()) key_rule = other_key_rule(properties, name);
    std::string value_rule =
        additional.is_object()
            ? rule_for(additional, name + "-additional", join_path(path, "additionalProperties"))
            : rules_.use_primitive(json_rule::kValue);
    extra_member = key_rule + " ws \":\" ws " + value_rule;
  }
  rules_.use_primitive(json_rule::kWs);

  // After the first member: each later one with its comma, optional ones
  // in ( )?, then any number of extra members.
  size_t count = declared.size();
  // The first member is one of the leading optional ones or the first
  // required one: that many alternatives, each followed by its tail.
  size_t first_required = count;
  for (size_t i = 0; i < count; ++i) {
    if (declared[i].required) {
      first_required = i;
      break;
    }
  }
  auto part = [&](size_t i) {
    std::string text = "\",\" ws " + members[i] + " ws";
    return declared[i].required ? text : "( " + text + " )?";
  };
  auto joined = [](std::string head, const std::string& tail) {
    return tail.empty() ? head : head + " " + tail;
  };
  // after[i]: the members from i on, each with its comma. Only the tails
  // the first-member alternatives name are kept: past them the members
  // form one chain, written front to back, so that the translation takes
  // space and time linear in the number of members.
  const size_t chain_start = std::min(first_required + 1, count);
  std::vector<std::string> after(chain_start + 1);
  std::string& chain = after[chain_start];
  for (size_t i = chain_start; i < count; ++i) chain = joined(std::move(chain), part(i));
  if (open) chain = joined(std::move(chain), "( \",\" ws " + extra_member + " ws )*");
  for (size_t i = chain_start + 1; i-- > 1;) {
    if (i < chain_start) after[i] = joined(part(i), after[i + 1]);
    // Long tails shared by several first-member alternatives become rules.
    if (first_required > 0 && count - i >= 4)
      after[i] = rules_.intern(name + "-rest-" + std::to_string(i), after[i]);
  }
  std::vector<std::string> firsts;
  for (size_t i = 0; i < count && i <= first_required; ++i) {
    firsts.push_back(joined(members[i] + " ws", after[i + 1]));
  }
  bool may_be_empty = first_required == count;
  if (may_be_empty && open) firsts.push_back(extra_member + " ws " + after[count]);
  std::string inner = join_alternatives(firsts);
  if (!inner.empty()) inner = "( " + inner + " )" + (may_be_empty ? "?" : "") + " ";
  return "\"{\" ws " + inner + "\"}\"";
}

std::string SchemaTranslator::other_key_rule(const Json& properties, const std::string& name) {
  // A trie of the declared names; at each node the key may leave every
  // name (a character no name has next, then anything) or end where no
  // name ends. Escapes are only used after leaving: `\u0061` must not
  // spell a declared "a".
  struct Node {
    std::map<char32_t, Node> children;
    bool terminal = false;
  };
  Node root;
  size_t total_length = 0;
  for (const auto& [key, schema] : properties.items()) {
    std::optional<std::u32string> code_points = decode_utf8(key);
    if (!code_points) fail_invalid("a property name that is not valid UTF-8", "#");
    // The trie (and its grammar) grows with the names: bounded, so that
    // neither its depth nor its size is the client's to choose.
    total_length += code_points->size();
    if (code_points->size() > kMaxExcludedNameLength || total_length > kMaxExcludedNamesLength) {
      fail(unsupported(fmt::format(
          "property names longer than {} characters, or {} in all, beside other properties "
          "(set additionalProperties to false)",
          kMaxExcludedNameLength, kMaxExcludedNamesLength)));
    }
    Node* node = &root;
    for (char32_t c : *code_points) node = &node->children[c];
    node->terminal = true;
  }
  std::string any_char = rules_.use_primitive(json_rule::kChar);
  std::string close = gbnf_literal("\"");
  std::function<std::string(const Node&, size_t)> expression = [&](const Node& node, size_t depth) {
    CodePointRanges excluded = {{0, 0x1F}, {'"', '"'}, {'\\', '\\'}};
    for (const auto& [c, child] : node.children) excluded.emplace_back(c, c);
    std::vector<std::string> alternatives = {gbnf_class(complement_ranges(excluded)) + " " +
                                             any_char + "* " + close};
    for (const auto& [c, child] : node.children) {
      std::string text;
      append_utf8(text, c);
      std::string encoded = Json(text).dump();  // as it appears inside the key's quotes
      encoded = encoded.substr(1, encoded.size() - 2);
      alternatives.push_back(gbnf_literal(encoded) + " ( " + expression(child, depth + 1) + " )");
    }
    if (!node.terminal) alternatives.push_back(close);
    // A long name continues in a rule of its own: GBNF nests groups only
    // so deep.
    if (depth > 0 && depth % kOtherKeyGroupsPerRule == 0)
      return rules_.intern(name + "-other-key", join_alternatives(alternatives));
    return join_alternatives(alternatives);
  };
  return rules_.intern(name + "-other-key", close + " ( " + expression(root, 0) + " )");
}

std::string SchemaTranslator::array_body(const Json& schema, const std::string& name,
                                         const std::string& path) {
  std::vector<std::string> prefix;
  std::optional<std::string> rest;  // the rule for items after the prefix; none: no more items
  auto item_rule = [&](const Json& item, const std::string& hint, const std::string& item_path) {
    return rule_for(item, hint, item_path);
  };
  auto rest_from = [&](const char* keyword, bool default_open) -> std::optional<std::string> {
    if (!schema.contains(keyword)) {
      if (!default_open) return std::nullopt;
      return rules_.use_primitive(json_rule::kValue);
    }
    const Json& value = schema[keyword];
    if (value == Json(false)) return std::nullopt;
    return item_rule(value, name + "-item", join_path(path, keyword));
  };
  const Json* tuple = nullptr;
  if (schema.contains("items") && schema["items"].is_array()) {
    if (schema.contains("prefixItems"))
      fail_invalid("'items' as an array beside 'prefixItems'", path);
    tuple = &schema["items"];
  } else if (schema.contains("prefixItems")) {
    if (!schema["prefixItems"].is_array()) fail_invalid("'prefixItems' must be an array", path);
    tuple = &schema["prefixItems"];
  }
  if (tuple) {
    for (size_t i = 0; i < tuple->size(); ++i) {
      prefix.push_back(
          item_rule((*tuple)[i], name + "-" + std::to_string(i + 1),
                    join_path(path, (schema.contains("prefixItems") ? "prefixItems/" : "items/") +
                                        std::to_string(i))));
    }
    rest = rest_from(schema.contains("prefixItems") ? "items" : "additionalItems", false);
  } else {
    rest = rest_from("items", true);
  }

  uint64_t low = count_keyword(schema, "minItems", path).value_or(0);
  std::optional<uint64_t> high = count_keyword(schema, "maxItems", path);
  if (low > kMaxSchemaCount)
    fail(unsupported("'minItems' above 10000 is not supported (at " + path + ")"));
  if (high) high = std::min(*high, std::max(low, kMaxSchemaCount));
  size_t count = prefix.size();
  if (!rest) high = std::min<uint64_t>(high.value_or(count), count);
  if (high && *high < low) fail_invalid("'minItems' is more than the array can hold", path);
  low = std::max<uint64_t>(low, std::min<uint64_t>(count, high.value_or(count)));
  rules_.use_primitive(json_rule::kWs);

  if (high && *high == 0) return "\"[\" ws \"]\"";
  std::function<std::string(uint64_t)> tail = [&](uint64_t i) -> std::string {
    if (high && i >= *high) return "";
    if (i < count) {
      std::string part = "\",\" ws " + prefix[i] + " ws";
      std::string more = tail(i + 1);
      if (!more.empty()) part += " " + more;
      return i >= low ? "( " + part + " )?" : part;
    }
    if (!rest) return "";
    std::optional<uint64_t> max_more;
    if (high) max_more = *high - i;
    return gbnf_repeat("( \",\" ws " + *rest + " ws )", low > i ? low - i : 0, max_more);
  };
  std::string first = count > 0 ? prefix[0] : *rest;
  std::string more = tail(1);
  std::string inner = first + " ws" + (more.empty() ? "" : " " + more);
  if (low == 0) inner = "( " + inner + " )?";
  return "\"[\" ws " + inner + " \"]\"";
}
}  // namespace ingot::sampling::grammar
