#include "chat/special_text_guard.h"

#include <string_view>

namespace ingot::chat {
namespace {

// Two noncharacters of the last private-use plane, around a placeholder's
// number: no tokenizer's special token holds them, and a template copies
// them as it copies any character.
constexpr std::string_view kOpen = "\xF4\x8F\xBF\xBE";   // U+10FFFE
constexpr std::string_view kClose = "\xF4\x8F\xBF\xBF";  // U+10FFFF

constexpr const char* kGuardedFields[] = {"content", "reasoning_content", "thinking"};

// The placeholder number written at `at` (after its opening mark), and
// where the placeholder ends: npos when it is not one.
size_t read_number(std::string_view text, size_t at, size_t& number) {
  size_t pos = at;
  number = 0;
  while (pos < text.size() && pos - at < 9 && text[pos] >= '0' && text[pos] <= '9') {
    number = number * 10 + size_t(text[pos] - '0');
    ++pos;
  }
  if (pos == at || text.substr(pos, kClose.size()) != kClose) return std::string_view::npos;
  return pos + kClose.size();
}

}  // namespace

nlohmann::ordered_json SpecialTextGuard::guard(nlohmann::ordered_json messages) {
  if (!messages.is_array()) return messages;
  for (auto& message : messages) {
    if (!message.is_object()) continue;
    for (const char* field : kGuardedFields) {
      auto it = message.find(field);
      if (it != message.end() && it->is_string()) *it = guard_text(it->get<std::string>());
    }
  }
  return messages;
}

std::string SpecialTextGuard::guard_text(const std::string& text) {
  std::vector<tokenizer::TextRange> found = tokenizer_->control_token_ranges(text);
  if (found.empty()) return text;
  std::string out;
  size_t cursor = 0;
  for (const tokenizer::TextRange& range : found) {
    out.append(text, cursor, range.begin - cursor);
    out += kOpen;
    out += std::to_string(originals_.size());
    out += kClose;
    originals_.push_back(text.substr(range.begin, range.end - range.begin));
    cursor = range.end;
  }
  out.append(text, cursor);
  return out;
}

GuardedPrompt SpecialTextGuard::restore(const std::string& rendered) const {
  GuardedPrompt prompt;
  if (originals_.empty()) {
    prompt.text = rendered;
    return prompt;
  }
  std::string_view text = rendered;
  size_t cursor = 0;
  for (size_t open = text.find(kOpen); open != std::string_view::npos;
       open = text.find(kOpen, cursor)) {
    size_t number = 0;
    const size_t end = read_number(text, open + kOpen.size(), number);
    prompt.text.append(text.substr(cursor, open - cursor));
    if (end == std::string_view::npos || number >= originals_.size()) {
      // Not a placeholder of ours: the text as it was.
      prompt.text += kOpen;
      cursor = open + kOpen.size();
      continue;
    }
    const size_t begin = prompt.text.size();
    prompt.text += originals_[number];
    prompt.literal.push_back({begin, prompt.text.size()});
    cursor = end;
  }
  prompt.text.append(text.substr(cursor));
  return prompt;
}

}  // namespace ingot::chat
