#include "sampling/grammar/schema_keywords.h"

#include <algorithm>
#include <iterator>

namespace ingot::sampling::grammar {
namespace {

constexpr std::string_view kAnnotations[] = {
    "title",     "description",     "$schema",         "$id",        "$anchor",
    "$comment",  "examples",        "default",         "deprecated", "readOnly",
    "writeOnly", "contentEncoding", "contentMediaType"};

constexpr std::string_view kSupported[] = {"type",
                                           "enum",
                                           "const",
                                           "properties",
                                           "required",
                                           "additionalProperties",
                                           "items",
                                           "prefixItems",
                                           "additionalItems",
                                           "minItems",
                                           "maxItems",
                                           "anyOf",
                                           "oneOf",
                                           "allOf",
                                           "$ref",
                                           "$defs",
                                           "definitions",
                                           "minLength",
                                           "maxLength",
                                           "pattern",
                                           "format",
                                           "minimum",
                                           "maximum",
                                           "exclusiveMinimum",
                                           "exclusiveMaximum"};

template <size_t N>
bool contains(const std::string_view (&list)[N], std::string_view keyword) {
  return std::find(std::begin(list), std::end(list), keyword) != std::end(list);
}

}  // namespace

bool is_annotation_keyword(std::string_view keyword) {
  return contains(kAnnotations, keyword);
}

bool is_supported_keyword(std::string_view keyword) {
  return contains(kSupported, keyword);
}

Status check_keywords(const nlohmann::ordered_json& schema, std::string_view path) {
  for (const auto& [keyword, value] : schema.items()) {
    if (is_annotation_keyword(keyword) || is_supported_keyword(keyword)) continue;
    return unsupported("JSON Schema keyword '" + keyword + "' is not supported (at " +
                       std::string(path) + ")");
  }
  return {};
}

}  // namespace ingot::sampling::grammar
