#include "chat/tool_calls/tool_call_family.h"

#include <cctype>

namespace ingot::chat::tool_calls {
namespace {

bool contains(std::string_view text, std::string_view part) {
  return text.find(part) != std::string_view::npos;
}

bool is_identifier_byte(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

// `word` as a whole identifier somewhere in `text`.
bool contains_word(std::string_view text, std::string_view word) {
  for (size_t at = text.find(word); at != std::string_view::npos; at = text.find(word, at + 1)) {
    bool starts = at == 0 || !is_identifier_byte(text[at - 1]);
    size_t end = at + word.size();
    bool ends = end == text.size() || !is_identifier_byte(text[end]);
    if (starts && ends) return true;
  }
  return false;
}

// Templates that write <tool_call> but put XML-like arguments inside it
// (Qwen3-Coder, GLM, Nemotron) or a list (Apriel) are not Hermes.
bool is_hermes(std::string_view source) {
  if (!contains(source, "<tool_call>")) return false;
  if (contains(source, "<function=") || contains(source, "<arg_key>") ||
      contains(source, "<tool_calls>")) {
    return false;
  }
  return contains(source, "\"arguments\"") || contains(source, "\\\"arguments\\\"");
}

bool is_llama3(std::string_view source) {
  if (!contains(source, "<|start_header_id|>") || contains(source, "<function=")) return false;
  return contains(source, "<|python_tag|>") || contains(source, "\"parameters\"");
}

}  // namespace

std::string_view family_name(ToolCallFamily family) {
  switch (family) {
    case ToolCallFamily::kGeneric:
      return "generic";
    case ToolCallFamily::kHermes:
      return "hermes";
    case ToolCallFamily::kLlama3:
      return "llama3";
    case ToolCallFamily::kMistralArray:
      return "mistral-array";
    case ToolCallFamily::kMistralTagged:
      return "mistral-tagged";
    case ToolCallFamily::kHarmony:
      return "harmony";
  }
  return "generic";
}

ToolCallFamily detect_tool_call_family(std::string_view source) {
  if (contains(source, "[TOOL_CALLS]")) {
    return contains(source, "[ARGS]") ? ToolCallFamily::kMistralTagged
                                      : ToolCallFamily::kMistralArray;
  }
  if (contains(source, "<|channel|>commentary") && contains(source, "<|call|>")) {
    return ToolCallFamily::kHarmony;
  }
  if (is_hermes(source)) return ToolCallFamily::kHermes;
  if (is_llama3(source)) return ToolCallFamily::kLlama3;
  return ToolCallFamily::kGeneric;
}

bool template_renders_tools(std::string_view source) {
  return contains_word(source, "tools");
}

std::string generic_tool_system_prompt(const nlohmann::ordered_json& tools) {
  std::string text =
      "You can call the following tools (functions). Each is described by a JSON object with "
      "its name, what it does and its parameters as a JSON Schema:\n";
  for (const auto& tool : tools) {
    const auto& function = tool.contains("function") ? tool["function"] : tool;
    text += function.dump();
    text += '\n';
  }
  text +=
      "\nTo call one or more tools, reply with only a JSON object of this form and nothing "
      "else:\n"
      "{\"tool_calls\": [{\"name\": \"<tool name>\", \"arguments\": {<the arguments as a JSON "
      "object>}}]}\n"
      "To answer without a tool, reply normally.";
  return text;
}

nlohmann::ordered_json with_generic_tool_prompt(const nlohmann::ordered_json& messages,
                                                const nlohmann::ordered_json& tools) {
  nlohmann::ordered_json result = messages;
  std::string prompt = generic_tool_system_prompt(tools);
  if (!result.empty() && result[0].value("role", "") == "system" &&
      result[0]["content"].is_string()) {
    result[0]["content"] = result[0]["content"].get<std::string>() + "\n\n" + prompt;
    return result;
  }
  result.insert(result.begin(), nlohmann::ordered_json{{"role", "system"}, {"content", prompt}});
  return result;
}

}  // namespace ingot::chat::tool_calls
