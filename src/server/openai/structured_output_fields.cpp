#include "server/openai/structured_output_fields.h"

#include <set>

namespace ingot::server {
namespace {

using json = nlohmann::ordered_json;

// OpenAI's rule for function and schema names.
bool is_valid_name(const std::string& name) {
  if (name.empty() || name.size() > 64) return false;
  for (char c : name) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '_' || c == '-';
    if (!ok) return false;
  }
  return true;
}

void check_json_schema_format(Validator& v, const json& format, ResponseFormat& out) {
  const auto it = format.find("json_schema");
  if (it == format.end() || !it->is_object()) {
    return v.fail("'response_format.json_schema' must be an object.",
                  "response_format.json_schema");
  }
  const json& spec = *it;
  if (!spec.contains("name") || !spec["name"].is_string() ||
      !is_valid_name(spec["name"].get<std::string>())) {
    return v.fail(
        "'response_format.json_schema.name' must be a string of letters, digits, '_' or '-' "
        "(at most 64).",
        "response_format.json_schema.name");
  }
  out.name = spec["name"];
  if (spec.contains("schema") && !spec["schema"].is_null()) {
    if (!spec["schema"].is_object()) {
      return v.fail("'response_format.json_schema.schema' must be an object.",
                    "response_format.json_schema.schema");
    }
    out.schema = spec["schema"];
  }
  if (spec.contains("strict") && !spec["strict"].is_null()) {
    if (!spec["strict"].is_boolean()) {
      return v.fail("'response_format.json_schema.strict' must be a boolean.",
                    "response_format.json_schema.strict");
    }
    out.strict = spec["strict"];
  }
  out.kind = ResponseFormat::Kind::kJsonSchema;
}

std::string check_tool(const json& tool, const std::string& at, std::set<std::string>& names) {
  if (!tool.is_object()) return at + " must be an object.";
  if (!tool.contains("type") || tool["type"] != "function") {
    return at + ".type must be 'function'.";
  }
  if (!tool.contains("function") || !tool["function"].is_object()) {
    return at + ".function must be an object.";
  }
  const json& fn = tool["function"];
  if (!fn.contains("name") || !fn["name"].is_string() ||
      !is_valid_name(fn["name"].get<std::string>())) {
    return at + ".function.name must be a string of letters, digits, '_' or '-' (at most 64).";
  }
  if (!names.insert(fn["name"].get<std::string>()).second) {
    return at + ".function.name '" + fn["name"].get<std::string>() + "' is used twice.";
  }
  if (fn.contains("description") && !fn["description"].is_null() &&
      !fn["description"].is_string()) {
    return at + ".function.description must be a string.";
  }
  if (fn.contains("parameters") && !fn["parameters"].is_null() && !fn["parameters"].is_object()) {
    return at + ".function.parameters must be a JSON Schema object.";
  }
  if (fn.contains("strict") && !fn["strict"].is_null() && !fn["strict"].is_boolean()) {
    return at + ".function.strict must be a boolean.";
  }
  return "";
}

void check_tool_choice(Validator& v, const std::set<std::string>& names,
                       StructuredOutputFields& request) {
  const json* choice = v.field("tool_choice");
  if (choice == nullptr || v.failed()) return;
  ToolChoice& out = request.tool_choice;
  if (choice->is_string()) {
    const std::string mode = *choice;
    if (mode == "auto") {
      out.mode = ToolChoice::Mode::kAuto;
    } else if (mode == "none") {
      out.mode = ToolChoice::Mode::kNone;
    } else if (mode == "required") {
      out.mode = ToolChoice::Mode::kRequired;
    } else {
      return v.fail("'tool_choice' must be 'auto', 'none', 'required' or a function choice.",
                    "tool_choice");
    }
  } else if (choice->is_object() && choice->value("type", json()) == "function" &&
             choice->contains("function") && (*choice)["function"].is_object() &&
             (*choice)["function"].contains("name") && (*choice)["function"]["name"].is_string()) {
    out.mode = ToolChoice::Mode::kFunction;
    out.function = (*choice)["function"]["name"];
  } else {
    return v.fail(
        "'tool_choice' must be 'auto', 'none', 'required' or "
        "{\"type\": \"function\", \"function\": {\"name\": ...}}.",
        "tool_choice");
  }
  if (out.mode != ToolChoice::Mode::kAuto && out.mode != ToolChoice::Mode::kNone && names.empty()) {
    return v.fail("'tool_choice' asks for a tool call but no 'tools' are given.", "tool_choice");
  }
  if (out.mode == ToolChoice::Mode::kFunction && !names.contains(out.function)) {
    return v.fail(
        "'tool_choice' names the function '" + out.function + "', which is not among 'tools'.",
        "tool_choice.function.name");
  }
}

}  // namespace

void check_response_format(Validator& v, StructuredOutputFields& request) {
  const json* format = v.field("response_format");
  if (format == nullptr || v.failed()) return;
  if (!format->is_object() || !format->contains("type") || !(*format)["type"].is_string()) {
    return v.fail("'response_format' must be an object with a string 'type'.", "response_format");
  }
  const std::string type = (*format)["type"];
  if (type == "text") {
    request.response_format.kind = ResponseFormat::Kind::kText;
  } else if (type == "json_object") {
    request.response_format.kind = ResponseFormat::Kind::kJsonObject;
  } else if (type == "json_schema") {
    check_json_schema_format(v, *format, request.response_format);
  } else {
    v.fail("'response_format.type' must be 'text', 'json_object' or 'json_schema', got '" + type +
               "'.",
           "response_format.type");
  }
}

void check_grammar(Validator& v, StructuredOutputFields& request) {
  const json* grammar = v.field("grammar");
  if (grammar == nullptr || v.failed()) return;
  if (!grammar->is_string() || grammar->get<std::string>().empty()) {
    return v.fail("'grammar' must be a non-empty GBNF string.", "grammar");
  }
  if (request.response_format.kind != ResponseFormat::Kind::kText) {
    return v.fail("'grammar' and a JSON 'response_format' cannot be combined.", "grammar");
  }
  request.grammar = grammar->get<std::string>();
}

void check_tools(Validator& v, StructuredOutputFields& request) {
  const json* tools = v.field("tools");
  std::set<std::string> names;
  if (tools != nullptr && !v.failed()) {
    if (!tools->is_array()) return v.fail("'tools' must be a list.", "tools");
    for (size_t i = 0; i < tools->size(); ++i) {
      std::string problem = check_tool((*tools)[i], "tools[" + std::to_string(i) + "]", names);
      if (!problem.empty()) return v.fail(problem, "tools");
    }
    request.tools = *tools;
  }
  check_tool_choice(v, names, request);
  if (auto parallel = v.boolean("parallel_tool_calls")) request.parallel_tool_calls = *parallel;
  if (v.failed()) return;
  bool calls_possible =
      !request.tools.empty() && request.tool_choice.mode != ToolChoice::Mode::kNone;
  if (calls_possible && request.grammar) {
    return v.fail("'grammar' and 'tools' cannot be combined.", "grammar");
  }
}

}  // namespace ingot::server
