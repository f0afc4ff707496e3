#pragma once
// Arguments that a syntax writes as plain text (<parameter=days>3</parameter>,
// <arg_value>Paris</arg_value>) become the JSON value the tool's schema asks
// for: 3 is the integer 3 where the schema says integer and the string "3"
// where it says string; an object or array is read as JSON, or as the
// Python literal a template wrote with str(). Without a schema, text that
// is JSON is taken as JSON and anything else is a string.

#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <string_view>

namespace ingot::chat::tool_calls {

// The parameter schemas of a request's tools, by tool name. Cheap to copy.
class ToolSchemas {
 public:
  ToolSchemas() = default;
  // OpenAI's tools: [{"type": "function", "function": {"name", "parameters"}}].
  explicit ToolSchemas(const nlohmann::ordered_json& tools);

  // The schema of `tool`'s parameter `key`; null when either is unknown.
  const nlohmann::ordered_json* parameter(std::string_view tool, std::string_view key) const;

 private:
  using ByName = std::map<std::string, nlohmann::ordered_json, std::less<>>;
  std::shared_ptr<const ByName> parameters_;
};

// The JSON types `schema` admits ("integer" among them, and those of its
// anyOf/oneOf/allOf members, enum and const); empty when it says nothing of
// types.
std::set<std::string> schema_types(const nlohmann::ordered_json& schema);

// The compact JSON text of a value written as `text`, typed by `schema`
// (null: untyped).
std::string typed_argument(std::string_view text, const nlohmann::ordered_json* schema);

}  // namespace ingot::chat::tool_calls
