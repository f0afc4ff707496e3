#pragma once
// What ChatTemplate::render changes, and renders again, when a template
// refuses messages that clients commonly send and that a template only
// wants in another shape: tool-call arguments as objects where it writes
// them with `+` (Functionary v3.2), and system or developer turns after
// the conversation started (Codex and Claude Code send them; Qwen3.5's
// template allows only one, first).

#include <functional>
#include <nlohmann/json.hpp>

namespace ingot::chat {

// Calls `visit` on each tool call's `function.arguments` in `message`.
void for_each_tool_call_arguments(nlohmann::ordered_json& message,
                                  const std::function<void(nlohmann::ordered_json&)>& visit);

// Every tool call's arguments given as an object become its JSON text.
// False when there were none to change.
bool arguments_as_text(nlohmann::ordered_json& messages);

// Every system turn but a first one joins the first turn, made a system
// turn when it is not one, their texts in order, a blank line apart. False
// when there was none to move.
bool system_turns_first(nlohmann::ordered_json& messages);

}  // namespace ingot::chat
