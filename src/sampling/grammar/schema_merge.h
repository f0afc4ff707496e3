#pragma once
// allOf as one schema: the members' keywords combined so that a value
// valid against the result is valid against every member. Objects merge
// property by property (a property in two members gets the allOf of both
// schemas), `required` lists unite, `type`s and `enum`s intersect, bounds
// take the tighter value. A member's additionalProperties applies, as JSON
// Schema says, to the properties only the other members declare: false
// removes them (an error if one is required), a schema is added to
// theirs. Keywords that cannot be combined (two different patterns or
// formats, anyOf in two members) are errors naming the keyword.

#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "util/status.h"

namespace ingot::sampling::grammar {

// Resolves a `$ref` to its target schema (or an error).
using RefResolver = std::function<Result<nlohmann::ordered_json>(const std::string& ref)>;

// `schema` with its `allOf` (and a `$ref` beside other keywords) folded
// into one schema without allOf or $ref at the top. Members are resolved
// and flattened recursively; `path` is for errors.
Result<nlohmann::ordered_json> flatten_all_of(const nlohmann::ordered_json& schema,
                                              const RefResolver& resolve, std::string_view path);

// Two schemas (objects without allOf or $ref at the top) as one.
Result<nlohmann::ordered_json> merge_schemas(const nlohmann::ordered_json& a,
                                             const nlohmann::ordered_json& b,
                                             std::string_view path);

}  // namespace ingot::sampling::grammar
