#pragma once
// Which JSON Schema keywords ingot understands. An assertion keyword
// outside this list makes translation fail with an error naming it, so
// that a constraint is never silently dropped; annotation keywords (which
// constrain nothing) are ignored.

#include <nlohmann/json.hpp>
#include <string_view>

#include "util/status.h"

namespace ingot::sampling::grammar {

// title, description, $schema, $id, $anchor, $comment, examples, default,
// deprecated, readOnly, writeOnly, contentEncoding, contentMediaType.
bool is_annotation_keyword(std::string_view keyword);

// The keywords the translator enforces.
bool is_supported_keyword(std::string_view keyword);

// An error naming the first keyword of `schema` that is neither; `path`
// (a JSON pointer like "#/properties/a") is where the schema sits.
Status check_keywords(const nlohmann::ordered_json& schema, std::string_view path);

}  // namespace ingot::sampling::grammar
