#include "sampling/grammar/schema_relaxation.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <set>
#include <string_view>

#include "sampling/grammar/regex_gbnf.h"
#include "sampling/grammar/schema_keywords.h"
#include "sampling/grammar/schema_ref.h"
#include "sampling/grammar/schema_translator.h"
#include "sampling/grammar/string_formats.h"

namespace ingot::sampling::grammar {
namespace {

using Json = nlohmann::ordered_json;

// Walks the schemas the translator would visit: from the root through
// subschema keywords, and into a `$ref`'s target the first time it is met
// (definitions nothing refers to are left as they are, as the translator
// leaves them). Each schema is relaxed once, before its children, so that
// erasing its keywords never moves a schema still being walked.
class Relaxer {
 public:
  Relaxer(Json& document, std::vector<std::string>& dropped)
      : document_(document), dropped_(dropped) {}

  // The document from its root, then the targets of the references met on
  // the way (a target may meet more).
  void relax_document() {
    relax(document_, "#");
    while (!pending_refs_.empty()) {
      std::string ref = std::move(pending_refs_.back());
      pending_refs_.pop_back();
      if (Json* target = resolve(ref)) relax(*target, ref);
    }
  }

 private:
  void relax(Json& schema, const std::string& path) {
    if (!schema.is_object()) return;
    if (!visited_.insert(&schema.get_ref<Json::object_t&>()).second) return;
    drop_unknown_keywords(schema, path);
    relax_string_keywords(schema, path);
    relax_counts(schema, path);
    relax_number_bounds(schema, path);
    if (schema.contains("anyOf") && schema.contains("oneOf"))
      drop(schema, "oneOf", path, "oneOf beside anyOf");
    relax_reference(schema, path);
    relax_subschemas(schema, path);
    relax_all_of_members(schema, path);
  }

  // allOf merges its members into one schema, where a keyword only one
  // value of which can hold (two patterns, two formats) cannot be
  // combined, and a length beside a pattern is no more enforceable than
  // in one schema. The first value met (the schema's own, then its
  // members' in order) stays; the others, and lengths beside a pattern
  // met anywhere, go.
  void relax_all_of_members(Json& schema, const std::string& path) {
    if (!schema.contains("allOf") || !schema["allOf"].is_array()) return;
    static constexpr const char* kSingleValued[] = {"pattern", "format", "const", "multipleOf"};
    Json& members = schema["allOf"];
    std::vector<std::pair<Json*, std::string>> parts = {{&schema, path}};
    for (size_t i = 0; i < members.size(); ++i) {
      if (members[i].is_object())
        parts.emplace_back(&members[i], path + "/allOf/" + std::to_string(i));
    }
    Json first = Json::object();
    for (auto& [part, part_path] : parts) {
      for (const char* keyword : kSingleValued) {
        if (!part->contains(keyword)) continue;
        if (!first.contains(keyword)) {
          first[keyword] = (*part)[keyword];
        } else if (first[keyword] != (*part)[keyword]) {
          drop(*part, keyword, part_path, std::string(keyword) + " beside another allOf member's");
        }
      }
    }
    if (!first.contains("pattern")) return;
    for (auto& [part, part_path] : parts) {
      for (const char* length : {"minLength", "maxLength"}) {
        if (part->contains(length))
          drop(*part, length, part_path, std::string(length) + " beside pattern");
      }
    }
  }

  void drop(Json& schema, const char* keyword, const std::string& path, const std::string& what) {
    schema.erase(keyword);
    dropped_.push_back(path + ": " + what);
  }

  void drop_unknown_keywords(Json& schema, const std::string& path) {
    std::vector<std::string> unknown;
    for (const auto& [keyword, value] : schema.items()) {
      if (!is_annotation_keyword(keyword) && !is_supported_keyword(keyword))
        unknown.push_back(keyword);
    }
    for (const std::string& keyword : unknown) drop(schema, keyword.c_str(), path, keyword);
  }

  // Whether `type` allows a string: string keywords constrain nothing else
  // (a `format: int32` on an integer is left to be ignored).
  static bool may_be_string(const Json& schema) {
    if (!schema.contains("type")) return true;
    const Json& type = schema["type"];
    if (type.is_string()) return type == "string";
    return type.is_array() && std::find(type.begin(), type.end(), "string") != type.end();
  }

  void relax_string_keywords(Json& schema, const std::string& path) {
    if (!may_be_string(schema)) return;
    if (schema.contains("format") && schema["format"].is_string()) {
      std::string format = schema["format"].get<std::string>();
      if (!string_format_rules(format)) {
        drop(schema, "format", path, "format " + format);
        if (!schema.contains("type")) schema["type"] = "string";
      } else {
        for (const char* beside : {"pattern", "minLength", "maxLength"}) {
          if (schema.contains(beside))
            drop(schema, beside, path, std::string(beside) + " beside format " + format);
        }
      }
    }
    if (schema.contains("pattern") && schema["pattern"].is_string()) {
      Result<std::string> translated = regex_to_gbnf(schema["pattern"].get<std::string>(), "char");
      if (!translated.ok()) {
        drop(schema, "pattern", path, "pattern (" + translated.error().message() + ")");
      } else {
        for (const char* beside : {"minLength", "maxLength"}) {
          if (schema.contains(beside))
            drop(schema, beside, path, std::string(beside) + " beside pattern");
        }
      }
    }
  }

  void relax_counts(Json& schema, const std::string& path) {
    for (const char* keyword : {"minLength", "minItems"}) {
      if (schema.contains(keyword) && schema[keyword].is_number() &&
          schema[keyword].get<double>() > static_cast<double>(kMaxSchemaCount)) {
        drop(schema, keyword, path, std::string(keyword) + " above 10000");
      }
    }
  }

  // Integer bounds may be fractional (they move inward); a number's may not.
  void relax_number_bounds(Json& schema, const std::string& path) {
    bool integer_only = schema.contains("type") && schema["type"] == "integer";
    if (integer_only) return;
    for (const char* keyword : {"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"}) {
      if (!schema.contains(keyword) || !schema[keyword].is_number()) continue;
      double value = schema[keyword].get<double>();
      if (std::floor(value) != value)
        drop(schema, keyword, path, std::string(keyword) + " fractional");
    }
  }

  void relax_reference(Json& schema, const std::string& path) {
    if (!schema.contains("$ref") || !schema["$ref"].is_string()) return;
    const std::string ref = schema["$ref"].get<std::string>();
    std::optional<std::string> fragment = ref_fragment(ref);
    if (!fragment || !is_json_pointer(*fragment)) return drop(schema, "$ref", path, "$ref " + ref);
    pending_refs_.push_back(ref);
  }

  // Null where the reference points to nothing (the translator then names
  // the broken reference).
  Json* resolve(const std::string& ref) {
    try {
      return &document_.at(Json::json_pointer(*ref_fragment(ref)));
    } catch (const nlohmann::json::exception&) {
      return nullptr;
    }
  }

  void relax_subschemas(Json& schema, const std::string& path) {
    if (schema.contains("properties") && schema["properties"].is_object()) {
      for (auto& [name, child] : schema["properties"].items()) {
        relax(child, path + "/properties/" + escape(name));
      }
    }
    for (const char* keyword : {"anyOf", "oneOf", "allOf", "prefixItems"}) {
      if (!schema.contains(keyword) || !schema[keyword].is_array()) continue;
      Json& list = schema[keyword];
      for (size_t i = 0; i < list.size(); ++i) {
        relax(list[i], path + "/" + keyword + "/" + std::to_string(i));
      }
    }
    for (const char* keyword : {"additionalProperties", "additionalItems", "items"}) {
      if (!schema.contains(keyword)) continue;
      Json& child = schema[keyword];
      if (child.is_array()) {
        for (size_t i = 0; i < child.size(); ++i)
          relax(child[i], path + "/" + keyword + "/" + std::to_string(i));
      } else {
        relax(child, path + "/" + keyword);
      }
    }
  }

  // A JSON pointer's escapes for a property name.
  static std::string escape(std::string_view name) {
    std::string out;
    for (char c : name) {
      if (c == '~') {
        out += "~0";
      } else if (c == '/') {
        out += "~1";
      } else {
        out += c;
      }
    }
    return out;
  }

  Json& document_;
  std::vector<std::string>& dropped_;
  std::set<const void*> visited_;
  std::vector<std::string> pending_refs_;
};

}  // namespace

RelaxedSchema relax_schema(const nlohmann::ordered_json& schema) {
  RelaxedSchema relaxed{schema, {}};
  Relaxer(relaxed.schema, relaxed.dropped).relax_document();
  return relaxed;
}

}  // namespace ingot::sampling::grammar
