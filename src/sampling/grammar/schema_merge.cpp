#include "sampling/grammar/schema_merge.h"

#include <algorithm>
#include <vector>

#include "sampling/grammar/schema_keywords.h"

namespace ingot::sampling::grammar {
namespace {

using Json = nlohmann::ordered_json;

constexpr int kMaxFlattenDepth = 32;

Error cannot_merge(std::string_view keyword, std::string_view path, std::string_view why) {
  return unsupported("allOf: cannot combine '" + std::string(keyword) + "' (" + std::string(why) +
                     ") at " + std::string(path));
}

std::vector<std::string> type_list(const Json& type) {
  if (type.is_string()) return {type.get<std::string>()};
  std::vector<std::string> out;
  if (type.is_array()) {
    for (const Json& item : type) {
      if (item.is_string()) out.push_back(item.get<std::string>());
    }
  }
  return out;
}

Result<Json> intersect_types(const Json& a, const Json& b, std::string_view path) {
  std::vector<std::string> left = type_list(a);
  std::vector<std::string> right = type_list(b);
  auto has = [](const std::vector<std::string>& list, std::string_view type) {
    return std::find(list.begin(), list.end(), type) != list.end();
  };
  Json out = Json::array();
  for (const std::string& type : left) {
    bool kept = has(right, type) || (type == "integer" && has(right, "number"));
    if (kept) out.push_back(type);
  }
  if (has(left, "number") && has(right, "integer") && !has(out, "integer"))
    out.push_back("integer");
  if (out.empty()) return cannot_merge("type", path, "no type is allowed by every member");
  if (out.size() == 1) return out[0];
  return out;
}

Json all_of(const Json& a, const Json& b) {
  if (a == b || b == Json(true)) return a;
  if (a == Json(true)) return b;
  if (a == Json(false) || b == Json(false)) return false;
  return Json{{"allOf", Json::array({a, b})}};
}

bool is_lower_bound(std::string_view keyword) {
  return keyword == "minimum" || keyword == "exclusiveMinimum" || keyword == "minLength" ||
         keyword == "minItems";
}

bool is_upper_bound(std::string_view keyword) {
  return keyword == "maximum" || keyword == "exclusiveMaximum" || keyword == "maxLength" ||
         keyword == "maxItems";
}

Result<Json> merge_keyword(const std::string& keyword, const Json& a, const Json& b,
                           std::string_view path) {
  if (a == b) return a;
  if (keyword == "type") return intersect_types(a, b, path);
  if (keyword == "properties") {
    if (!a.is_object() || !b.is_object()) return cannot_merge(keyword, path, "not objects");
    Json out = a;
    for (const auto& [name, schema] : b.items()) {
      out[name] = out.contains(name) ? all_of(out[name], schema) : schema;
    }
    return out;
  }
  if (keyword == "required") {
    if (!a.is_array() || !b.is_array()) return cannot_merge(keyword, path, "not arrays");
    Json out = a;
    for (const Json& name : b) {
      if (std::find(out.begin(), out.end(), name) == out.end()) out.push_back(name);
    }
    return out;
  }
  if (keyword == "additionalProperties" || keyword == "items" || keyword == "additionalItems") {
    if (a.is_array() || b.is_array()) return cannot_merge(keyword, path, "tuple form");
    return all_of(a, b);
  }
  if (keyword == "prefixItems") {
    if (!a.is_array() || !b.is_array()) return cannot_merge(keyword, path, "not arrays");
    Json out = a.size() >= b.size() ? a : b;
    for (size_t i = 0; i < std::min(a.size(), b.size()); ++i) out[i] = all_of(a[i], b[i]);
    return out;
  }
  if (keyword == "enum") {
    if (!a.is_array() || !b.is_array()) return cannot_merge(keyword, path, "not arrays");
    Json out = Json::array();
    for (const Json& value : a) {
      if (std::find(b.begin(), b.end(), value) != b.end()) out.push_back(value);
    }
    if (out.empty()) return cannot_merge(keyword, path, "no value is in every member's enum");
    return out;
  }
  if (is_lower_bound(keyword) || is_upper_bound(keyword)) {
    if (!a.is_number() || !b.is_number()) return cannot_merge(keyword, path, "different values");
    bool take_a = is_lower_bound(keyword) ? a.get<double>() >= b.get<double>()
                                          : a.get<double>() <= b.get<double>();
    return take_a ? a : b;
  }
  return cannot_merge(keyword, path, "the members give different values");
}

Status collect_members(const Json& schema, const RefResolver& resolve, std::string_view path,
                       int depth, std::vector<Json>& members) {
  if (depth > kMaxFlattenDepth) {
    return unsupported("allOf/$ref nested deeper than " + std::to_string(kMaxFlattenDepth) +
                       " levels, or a reference cycle, at " + std::string(path));
  }
  if (schema == Json(true)) return {};
  if (schema == Json(false)) {
    return invalid_argument("allOf has a member that is false: no value can match (at " +
                            std::string(path) + ")");
  }
  if (!schema.is_object()) {
    return invalid_argument("a schema must be an object or a boolean (at " + std::string(path) +
                            ")");
  }
  Json rest = schema;
  if (schema.contains("$ref")) {
    if (!schema["$ref"].is_string()) {
      return invalid_argument("'$ref' must be a string (at " + std::string(path) + ")");
    }
    INGOT_ASSIGN_OR_RETURN(Json target, resolve(schema["$ref"].get<std::string>()));
    rest.erase("$ref");
    INGOT_RETURN_IF_ERROR(collect_members(target, resolve, path, depth + 1, members));
  }
  if (schema.contains("allOf")) {
    const Json& all = schema["allOf"];
    if (!all.is_array() || all.empty()) {
      return invalid_argument("'allOf' must be a non-empty array (at " + std::string(path) + ")");
    }
    rest.erase("allOf");
    for (size_t i = 0; i < all.size(); ++i) {
      std::string member_path = std::string(path) + "/allOf/" + std::to_string(i);
      INGOT_RETURN_IF_ERROR(collect_members(all[i], resolve, member_path, depth + 1, members));
    }
  }
  members.push_back(std::move(rest));
  return {};
}

// What each member's additionalProperties says about the properties only
// the other member declares: excluded (false) or also bound by its schema.
struct CrossConstraints {
  std::vector<std::string> excluded;
  std::vector<std::pair<std::string, Json>> extra;
};

void cross_constraints(const Json& member, const Json& other, CrossConstraints& out) {
  if (!member.contains("additionalProperties") || !other.contains("properties")) return;
  const Json& additional = member["additionalProperties"];
  const Json empty = Json::object();
  const Json& declared = member.contains("properties") ? member["properties"] : empty;
  if (!other["properties"].is_object() || !declared.is_object()) return;
  for (const auto& [name, schema] : other["properties"].items()) {
    if (declared.contains(name)) continue;
    if (additional == Json(false)) {
      out.excluded.push_back(name);
    } else if (additional.is_object()) {
      out.extra.emplace_back(name, additional);
    }
  }
}

Status apply_cross_constraints(const CrossConstraints& constraints, Json& merged,
                               std::string_view path) {
  for (const auto& [name, schema] : constraints.extra) {
    merged["properties"][name] = all_of(merged["properties"][name], schema);
  }
  for (const std::string& name : constraints.excluded) {
    if (merged.contains("required") && merged["required"].is_array()) {
      const Json& required = merged["required"];
      if (std::find(required.begin(), required.end(), Json(name)) != required.end()) {
        return invalid_argument(
            "allOf: required property '" + name +
            "' is excluded by another member's additionalProperties: false (at " +
            std::string(path) + ")");
      }
    }
    merged["properties"].erase(name);
  }
  return {};
}

Result<Json> merge_keywords(const Json& a, const Json& b, std::string_view path) {
  Json out = a;
  for (const auto& [keyword, value] : b.items()) {
    if (is_annotation_keyword(keyword) || keyword == "$defs" || keyword == "definitions") continue;
    if (!out.contains(keyword)) {
      out[keyword] = value;
      continue;
    }
    bool both_branching = keyword == "anyOf" || keyword == "oneOf";
    if (both_branching && out[keyword] != value) {
      return cannot_merge(keyword, path, "two members branch; write the combinations as one anyOf");
    }
    INGOT_ASSIGN_OR_RETURN(out[keyword], merge_keyword(keyword, out[keyword], value, path));
  }
  return out;
}

}  // namespace

Result<Json> merge_schemas(const Json& a, const Json& b, std::string_view path) {
  CrossConstraints constraints;
  cross_constraints(a, b, constraints);
  cross_constraints(b, a, constraints);
  INGOT_ASSIGN_OR_RETURN(Json out, merge_keywords(a, b, path));
  INGOT_RETURN_IF_ERROR(apply_cross_constraints(constraints, out, path));
  return out;
}

Result<Json> flatten_all_of(const Json& schema, const RefResolver& resolve, std::string_view path) {
  std::vector<Json> members;
  INGOT_RETURN_IF_ERROR(collect_members(schema, resolve, path, 0, members));
  Json merged = Json::object();
  for (const Json& member : members) {
    INGOT_ASSIGN_OR_RETURN(merged, merge_schemas(merged, member, path));
  }
  return merged;
}

}  // namespace ingot::sampling::grammar
