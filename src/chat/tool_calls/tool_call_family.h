#pragma once
// Which syntax a model writes its tool calls in, read from its chat
// template (the template renders past calls the way the model was trained
// to write them), and what a template without tool support needs instead.

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace ingot::chat::tool_calls {

enum class ToolCallFamily {
  // No known syntax: a reply that is only {"name", "arguments"} or
  // {"tool_calls": [{"name", "arguments"}, ...]}.
  kGeneric,
  // Qwen 2.5/3, QwQ, Hermes 2/3, Granite 4 and others:
  // <tool_call>\n{"name": ..., "arguments": {...}}\n</tool_call>, repeated.
  kHermes,
  // Llama 3.1/3.2/3.3: {"name": ..., "parameters": {...}} as the reply,
  // optionally after <|python_tag|>; <|python_tag|> followed by code or a
  // builtin tool's name.call(key="value").
  kLlama3,
  // Mistral Nemo and older: [TOOL_CALLS][{"name", "arguments", "id"?}, ...].
  kMistralArray,
  // Mistral Small 3.2, Devstral, Ministral 3: [TOOL_CALLS]name[ARGS]{...},
  // repeated (an optional [CALL_ID]id before [ARGS]).
  kMistralTagged,
  // gpt-oss (harmony): a commentary message to functions.NAME whose body is
  // the arguments' JSON, which the engine's HarmonyChannels passes on as
  // to=functions.NAME<|message|>{...}.
  kHarmony,
};

std::string_view family_name(ToolCallFamily family);

ToolCallFamily detect_tool_call_family(std::string_view template_source);

// Whether the template renders the `tools` variable itself. When it does
// not, the caller describes the tools in a system message
// (generic_tool_system_prompt) and parses replies as kGeneric.
bool template_renders_tools(std::string_view template_source);

// The system text describing `tools` (OpenAI's [{"type": "function",
// "function": {name, description, parameters}}]) and the kGeneric reply
// format, for templates that do not render tools.
std::string generic_tool_system_prompt(const nlohmann::ordered_json& tools);

// `messages` with generic_tool_system_prompt(tools) added: appended to a
// leading system message, or as a new first system message.
nlohmann::ordered_json with_generic_tool_prompt(const nlohmann::ordered_json& messages,
                                                const nlohmann::ordered_json& tools);

}  // namespace ingot::chat::tool_calls
