#pragma once
// Schemas written for validators, made enforceable. Agents hand the model
// the tool schemas of whatever MCP servers their user connected; those
// carry assertions a grammar cannot express (`not`, `propertyNames`,
// `if`/`then`, `uniqueItems`, formats such as `uri`, a pattern beside a
// length). Refusing the request for one of them leaves the agent with no
// tool at all, so, unless the caller asked for strict enforcement, such an
// assertion is dropped and named, and the rest is enforced:
//
//  - a keyword the translator does not know is removed;
//  - an unknown `format` is removed, leaving its base type (string);
//  - `pattern`, `minLength` or `maxLength` beside a `format` is removed,
//    and `minLength`/`maxLength` beside a `pattern`;
//  - a `pattern` the regex translator cannot take is removed;
//  - a fractional bound on a number, `minLength`/`minItems` above 10000,
//    `oneOf` beside `anyOf`, and a `$ref` outside the document are removed.
//  - across a schema and its `allOf` members, a second `pattern`,
//    `format`, `const` or `multipleOf` with another value is removed (the
//    first stays), and so are `minLength`/`maxLength` beside a pattern.
//
// Everything generated then validates against the original schema except
// where a dropped assertion is the reason. Annotations stay (ignored).

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace ingot::sampling::grammar {

struct RelaxedSchema {
  nlohmann::ordered_json schema;
  // One entry per dropped assertion: "#/properties/url: format uri".
  std::vector<std::string> dropped;
};

RelaxedSchema relax_schema(const nlohmann::ordered_json& schema);

}  // namespace ingot::sampling::grammar
