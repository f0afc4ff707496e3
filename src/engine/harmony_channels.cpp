#include "engine/harmony_channels.h"

#include <algorithm>
#include <array>

namespace ingot::engine {
namespace {

constexpr std::string_view kMessage = "<|message|>";
constexpr std::string_view kChannel = "<|channel|>";
constexpr std::string_view kRecipient = "to=";
constexpr std::string_view kFunctions = "functions.";
// What ends a body: <|end|>; a new message's <|start|> where a model left
// the end out; <|return|> and <|call|> where the vocabulary renders them.
constexpr std::array<std::string_view, 4> kBodyEnds = {"<|end|>", "<|start|>", "<|return|>",
                                                       "<|call|>"};
// A header longer than this is not one: the reply is plain text.
constexpr size_t kMaxHeader = 512;

// The length of the longest suffix of `text` that is a proper prefix of `tag`.
size_t partial_suffix(std::string_view text, std::string_view tag) {
  for (size_t len = std::min(tag.size() - 1, text.size()); len > 0; --len) {
    if (text.substr(text.size() - len) == tag.substr(0, len)) return len;
  }
  return 0;
}

// The word after `key` in `header`, up to a space or the next marker.
std::string_view word_after(std::string_view header, std::string_view key) {
  const size_t at = header.find(key);
  if (at == std::string_view::npos) return {};
  std::string_view rest = header.substr(at + key.size());
  return rest.substr(0, std::min(rest.find(' '), rest.find("<|")));
}

}  // namespace

void HarmonyChannels::push(std::string_view text, Output& out) {
  pending_.append(text);
  route(out);
}

void HarmonyChannels::route(Output& out) {
  for (;;) {
    if (state_ == State::kPlain) {
      out.content += pending_;
      pending_.clear();
      return;
    }
    if (state_ == State::kBody) {
      read_body(out);
      if (state_ == State::kBody) return;
      continue;
    }
    if (!read_header(out)) return;
  }
}

// Whether a whole header was read (or the reply turned out plain).
bool HarmonyChannels::read_header(Output& out) {
  const size_t start = pending_.find_first_not_of(" \n\r\t");
  if (start == std::string::npos) return false;
  const std::string_view rest = std::string_view(pending_).substr(start);
  const bool opens = rest.starts_with("<|") || std::string_view("<|").starts_with(rest);
  const size_t end = rest.find(kMessage);
  if (opens && end != std::string_view::npos) {
    start_body(rest.substr(0, end), out);
    pending_.erase(0, start + end + kMessage.size());
    return true;
  }
  if (opens && rest.size() <= kMaxHeader) return false;  // the header may go on
  state_ = State::kPlain;
  return true;
}

void HarmonyChannels::start_body(std::string_view header, Output& out) {
  state_ = State::kBody;
  const std::string_view recipient = word_after(header, kRecipient);
  if (recipient.starts_with(kFunctions)) {
    route_ = Route::kCall;
    out.content += std::string(kRecipient) + std::string(recipient) + std::string(kMessage);
    return;
  }
  route_ = word_after(header, kChannel) == "analysis" ? Route::kReasoning : Route::kContent;
}

// Emits the body up to its end marker, holding back what may be the start
// of one.
void HarmonyChannels::read_body(Output& out) {
  size_t end = std::string::npos, marker = 0;
  for (std::string_view tag : kBodyEnds) {
    const size_t at = pending_.find(tag);
    if (at < end) end = at, marker = tag == "<|start|>" ? 0 : tag.size();
  }
  if (end != std::string::npos) {
    emit(std::string_view(pending_).substr(0, end), out);
    pending_.erase(0, end + marker);
    state_ = State::kHeader;
    return;
  }
  size_t keep = 0;
  for (std::string_view tag : kBodyEnds) keep = std::max(keep, partial_suffix(pending_, tag));
  emit(std::string_view(pending_).substr(0, pending_.size() - keep), out);
  pending_.erase(0, pending_.size() - keep);
}

void HarmonyChannels::emit(std::string_view text, Output& out) const {
  (route_ == Route::kReasoning ? out.reasoning : out.content).append(text);
}

// The reply ended: a body's held-back bytes are its own; an unfinished
// header is dropped, unless the reply never opened one.
void HarmonyChannels::flush(Output& out) {
  if (state_ == State::kBody) {
    emit(pending_, out);
  } else if (state_ == State::kPlain) {
    out.content += pending_;
  }
  pending_.clear();
}

}  // namespace ingot::engine
