#include "chat/template_accommodations.h"

#include <string>

namespace ingot::chat {
namespace {

using Json = nlohmann::ordered_json;

bool is_system(const Json& message) {
  return message.is_object() && message.value("role", "") == "system";
}

// A turn's text: its content string, or its text parts joined.
std::string text_of(const Json& message) {
  auto content = message.find("content");
  if (content == message.end()) return {};
  if (content->is_string()) return content->get<std::string>();
  std::string text;
  if (!content->is_array()) return text;
  for (const Json& part : *content) {
    if (part.is_object() && part.value("type", "") == "text" && part.contains("text") &&
        part["text"].is_string()) {
      text += part["text"].get<std::string>();
    }
  }
  return text;
}

}  // namespace

void for_each_tool_call_arguments(Json& message, const std::function<void(Json&)>& visit) {
  auto calls = message.find("tool_calls");
  if (calls == message.end() || !calls->is_array()) return;
  for (Json& call : *calls) {
    if (!call.is_object()) continue;
    auto function = call.find("function");
    if (function == call.end() || !function->is_object()) continue;
    auto arguments = function->find("arguments");
    if (arguments != function->end()) visit(*arguments);
  }
}

bool arguments_as_text(Json& messages) {
  bool changed = false;
  for (Json& message : messages) {
    if (!message.is_object()) continue;
    for_each_tool_call_arguments(message, [&](Json& arguments) {
      if (!arguments.is_object()) return;
      arguments = arguments.dump();
      changed = true;
    });
  }
  return changed;
}

bool system_turns_first(Json& messages) {
  const size_t leading = !messages.empty() && is_system(messages[0]) ? 1 : 0;
  std::string moved;
  Json kept = Json::array();
  for (size_t i = 0; i < messages.size(); ++i) {
    if (i < leading || !is_system(messages[i])) {
      kept.push_back(std::move(messages[i]));
      continue;
    }
    if (!moved.empty()) moved += "\n\n";
    moved += text_of(messages[i]);
  }
  if (kept.size() == messages.size()) {
    messages = std::move(kept);
    return false;
  }
  if (leading == 0) {
    kept.insert(kept.begin(), Json{{"role", "system"}, {"content", moved}});
  } else {
    Json& first = kept[0];
    std::string text = text_of(first);
    first["content"] = text.empty() ? moved : text + "\n\n" + moved;
  }
  messages = std::move(kept);
  return true;
}

}  // namespace ingot::chat
