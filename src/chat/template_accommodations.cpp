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

bool arguments_as_text(Json& messages) {
  bool changed = false;
  for (Json& message : messages) {
    if (!message.is_object() || !message.contains("tool_calls")) continue;
    Json& calls = message["tool_calls"];
    if (!calls.is_array()) continue;
    for (Json& call : calls) {
      if (!call.is_object() || !call.contains("function") || !call["function"].is_object()) {
        continue;
      }
      Json& function = call["function"];
      if (!function.contains("arguments") || !function["arguments"].is_object()) continue;
      function["arguments"] = function["arguments"].dump();
      changed = true;
    }
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
