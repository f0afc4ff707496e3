#include "chat/tool_calls/argument_typing.h"

#include <set>

#include "chat/tool_calls/call_syntax.h"
#include "chat/tool_calls/json_text.h"
#include "chat/tool_calls/python_literal.h"

namespace ingot::chat::tool_calls {
namespace {

using Json = nlohmann::ordered_json;

// The JSON types a schema admits ("integer" among them); empty when it
// says nothing of types.
void collect_types(const Json& schema, std::set<std::string>& types, int depth = 0) {
  if (!schema.is_object() || depth > 8) return;
  if (auto type = schema.find("type"); type != schema.end()) {
    if (type->is_string()) types.insert(type->get<std::string>());
    if (type->is_array()) {
      for (const Json& each : *type) {
        if (each.is_string()) types.insert(each.get<std::string>());
      }
    }
  }
  for (const char* key : {"anyOf", "oneOf", "allOf"}) {
    if (auto list = schema.find(key); list != schema.end() && list->is_array()) {
      for (const Json& each : *list) collect_types(each, types, depth + 1);
    }
  }
  for (const char* key : {"enum", "const"}) {
    auto values = schema.find(key);
    if (values == schema.end()) continue;
    for (const Json& value :
         values->is_array() && key[0] == 'e' ? *values : Json::array({*values})) {
      types.insert(value.is_string()    ? "string"
                   : value.is_boolean() ? "boolean"
                   : value.is_number()  ? "number"
                   : value.is_null()    ? "null"
                   : value.is_array()   ? "array"
                                        : "object");
    }
  }
  if (types.empty() && schema.contains("properties")) types.insert("object");
  if (types.empty() && schema.contains("items")) types.insert("array");
}

bool admits(const std::set<std::string>& types, const Json& value) {
  if (types.empty()) return true;
  if (value.is_string()) return types.contains("string");
  if (value.is_boolean()) return types.contains("boolean");
  if (value.is_null()) return types.contains("null");
  if (value.is_array()) return types.contains("array");
  if (value.is_object()) return types.contains("object");
  if (value.is_number_integer() || value.is_number_unsigned()) {
    return types.contains("integer") || types.contains("number");
  }
  // 3.0 is an integer to JSON Schema.
  if (types.contains("number")) return true;
  double number = value.get<double>();
  return types.contains("integer") && number == static_cast<double>(static_cast<int64_t>(number));
}

}  // namespace

std::set<std::string> schema_types(const nlohmann::ordered_json& schema) {
  std::set<std::string> types;
  collect_types(schema, types);
  return types;
}

ToolSchemas::ToolSchemas(const nlohmann::ordered_json& tools) {
  auto by_name = std::make_shared<ByName>();
  if (tools.is_array()) {
    for (const Json& tool : tools) {
      if (!tool.is_object()) continue;
      const Json& function = tool.contains("function") ? tool["function"] : tool;
      if (!function.is_object() || !function.contains("name") || !function["name"].is_string()) {
        continue;
      }
      const Json parameters = function.value("parameters", Json::object());
      by_name->emplace(function["name"].get<std::string>(), parameters);
    }
  }
  parameters_ = std::move(by_name);
}

const nlohmann::ordered_json* ToolSchemas::parameter(std::string_view tool,
                                                     std::string_view key) const {
  if (!parameters_) return nullptr;
  auto found = parameters_->find(tool);
  if (found == parameters_->end() || !found->second.is_object()) return nullptr;
  auto properties = found->second.find("properties");
  if (properties == found->second.end() || !properties->is_object()) return nullptr;
  auto property = properties->find(std::string(key));
  return property == properties->end() ? nullptr : &*property;
}

std::string typed_argument(std::string_view text, const nlohmann::ordered_json* schema) {
  std::set<std::string> types = schema ? schema_types(*schema) : std::set<std::string>();
  const bool only_string = types.size() == 1 && types.contains("string");
  if (!only_string) {
    std::string_view value = trim_json_space(text);
    Json json = Json::parse(value, nullptr, false);
    if (!json.is_discarded() && admits(types, json) && !(json.is_string() && types.empty())) {
      return compact_json(json);
    }
    if (std::optional<Json> literal = parse_python_literal(value);
        literal && (literal->is_structured() || literal->is_boolean() || literal->is_null()) &&
        admits(types, *literal)) {
      return compact_json(*literal);
    }
  }
  return compact_json(Json(std::string(text)));
}

}  // namespace ingot::chat::tool_calls
