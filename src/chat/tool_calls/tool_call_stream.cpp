#include "chat/tool_calls/tool_call_stream.h"

#include <algorithm>

#include "chat/tool_calls/call_format.h"
#include "chat/tool_calls/format_call_parser.h"
#include "chat/tool_calls/json_call_parsers.h"
#include "chat/tool_calls/marker_call_parsers.h"

namespace ingot::chat::tool_calls {
namespace {

constexpr std::string_view kHermesOpen = "<tool_call>";
constexpr std::string_view kMistralOpen = "[TOOL_CALLS]";
constexpr std::string_view kPythonTag = "<|python_tag|>";
constexpr std::string_view kHarmonyRecipient = "to=functions.";

std::vector<std::string_view> markers_for(ToolCallFamily family) {
  switch (family) {
    case ToolCallFamily::kHermes:
      return {kHermesOpen};
    case ToolCallFamily::kLlama3:
      return {kPythonTag};
    case ToolCallFamily::kMistralArray:
    case ToolCallFamily::kMistralTagged:
      return {kMistralOpen};
    case ToolCallFamily::kHarmony:
      return {kHarmonyRecipient};
    default:
      break;
  }
  std::vector<std::string_view> markers;
  if (const CallFormat* format = call_format(family)) {
    for (std::string_view marker : {format->section_open, format->call_open}) {
      if (!marker.empty()) markers.push_back(marker);
    }
  }
  return markers;
}

}  // namespace

ToolCallStreamParser::ToolCallStreamParser(ToolCallFamily family, ToolCallIdGenerator ids,
                                           ToolSchemas schemas)
    : family_(family),
      ids_(std::move(ids)),
      schemas_(std::move(schemas)),
      markers_(markers_for(family)) {
  const CallFormat* format = call_format(family);
  if (format && format->opens_reply) {
    start_call("", std::make_unique<FormatCallParser>(*format, false, sink(), schemas_));
  }
}

ToolCallStreamParser::~ToolCallStreamParser() = default;

ReplyDelta ToolCallStreamParser::push(std::string_view text) {
  queue_.append(text);
  drain();
  return std::exchange(out_, ReplyDelta());
}

ReplyDelta ToolCallStreamParser::finish() {
  drain();
  while (call_) {
    Outcome outcome = call_->finish();
    if (outcome.progress == Outcome::Progress::kFailed && !call_announced_) {
      reject_call();
    } else {
      end_call(outcome.spill);
    }
    drain();
  }
  if (!held_marker_.empty()) emit_content(std::exchange(held_marker_, std::string()));
  held_space_.clear();
  return std::exchange(out_, ReplyDelta());
}

void ToolCallStreamParser::drain() {
  while (queue_pos_ < queue_.size()) {
    char c = queue_[queue_pos_++];
    if (call_) {
      feed_call(c);
    } else {
      scan_content(c);
    }
  }
  queue_.clear();
  queue_pos_ = 0;
}

void ToolCallStreamParser::scan_content(char c) {
  auto starts_marker = [&](std::string_view text) {
    return std::any_of(markers_.begin(), markers_.end(),
                       [&](std::string_view m) { return m.starts_with(text); });
  };
  if (!held_marker_.empty() || starts_marker(std::string_view(&c, 1))) {
    std::string candidate = std::exchange(held_marker_, std::string()) + c;
    for (std::string_view marker : markers_) {
      if (candidate == marker) {
        start_call(candidate, syntax_after(marker));
        return;
      }
    }
    if (starts_marker(candidate)) {
      held_marker_ = std::move(candidate);
      return;
    }
    // Not a marker after all; a marker may still start inside the rest.
    emit_content(candidate.substr(0, 1));
    queue_.insert(queue_pos_, candidate.substr(1));
    return;
  }
  if (c == '{' && bare_object_may_start()) {
    start_call("", std::make_unique<ObjectCallParser>(sink(), family_ == ToolCallFamily::kGeneric));
    feed_call(c);
    return;
  }
  if (is_json_space(c)) {
    if (segment_has_content_) held_space_.push_back(c);
    return;
  }
  emit_content(std::string_view(&c, 1));
}

// A bare JSON call is the whole reply, or follows other calls: it may start
// only where no content came before it.
bool ToolCallStreamParser::bare_object_may_start() const {
  bool bare_family = family_ == ToolCallFamily::kGeneric || family_ == ToolCallFamily::kLlama3;
  return bare_family && !segment_has_content_;
}

std::unique_ptr<CallSyntax> ToolCallStreamParser::syntax_after(std::string_view marker) {
  if (const CallFormat* format = call_format(family_)) {
    bool section = marker == format->section_open;
    return std::make_unique<FormatCallParser>(*format, section, sink(), schemas_);
  }
  if (marker == kHermesOpen) return std::make_unique<HermesCallParser>(sink());
  if (marker == kMistralOpen) return std::make_unique<MistralCallParser>(sink());
  if (marker == kHarmonyRecipient) return std::make_unique<HarmonyCallParser>(sink());
  return std::make_unique<PythonTagCallParser>(sink());
}

void ToolCallStreamParser::start_call(std::string opening, std::unique_ptr<CallSyntax> syntax) {
  held_space_.clear();
  call_ = std::move(syntax);
  call_text_ = std::move(opening);
  call_announced_ = false;
}

void ToolCallStreamParser::feed_call(char c) {
  if (!call_announced_) call_text_.push_back(c);
  Outcome outcome = call_->feed(c);
  switch (outcome.progress) {
    case Outcome::Progress::kMore:
      return;
    case Outcome::Progress::kDone:
      end_call(outcome.spill);
      return;
    case Outcome::Progress::kFailed:
      if (call_announced_) {
        end_call(std::string(1, c));
      } else {
        reject_call();
      }
      return;
  }
}

void ToolCallStreamParser::end_call(const std::string& spill) {
  call_.reset();
  call_text_.clear();
  segment_has_content_ = false;
  held_space_.clear();
  queue_.insert(queue_pos_, spill);
}

// The text since the marker was not a call: its first byte is content, and
// the rest is scanned again (another marker may start inside it). A call
// the prompt opened (Functionary v3.2's >>>) has read nothing when the reply
// is empty.
void ToolCallStreamParser::reject_call() {
  call_.reset();
  std::string text = std::exchange(call_text_, std::string());
  if (text.empty()) return;
  emit_content(text.substr(0, 1));
  queue_.insert(queue_pos_, text.substr(1));
}

void ToolCallStreamParser::emit_content(std::string_view text) {
  out_.content += held_space_;
  held_space_.clear();
  out_.content += text;
  segment_has_content_ = true;
}

void ToolCallStreamParser::open_call(std::string name) {
  call_announced_ = true;
  call_text_.clear();
  ToolCallDelta header;
  header.index = calls_++;
  header.id = ids_.next();
  header.name = std::move(name);
  out_.tool_calls.push_back(std::move(header));
}

void ToolCallStreamParser::append_arguments(std::string_view piece) {
  if (piece.empty()) return;
  size_t index = calls_ - 1;
  if (out_.tool_calls.empty() || out_.tool_calls.back().index != index ||
      out_.tool_calls.back().id) {
    ToolCallDelta delta;
    delta.index = index;
    out_.tool_calls.push_back(std::move(delta));
  }
  out_.tool_calls.back().arguments.append(piece);
}

ParsedReply parse_tool_calls(std::string_view reply, ToolCallFamily family, ToolCallIdGenerator ids,
                             ToolSchemas schemas) {
  ToolCallStreamParser parser(family, std::move(ids), std::move(schemas));
  ParsedReply parsed;
  accumulate(parsed, parser.push(reply));
  accumulate(parsed, parser.finish());
  return parsed;
}

}  // namespace ingot::chat::tool_calls
