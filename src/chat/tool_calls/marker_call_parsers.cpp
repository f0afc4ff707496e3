#include "chat/tool_calls/marker_call_parsers.h"

#include <algorithm>
#include <cctype>
#include <optional>
#include <string_view>

#include "chat/tool_calls/json_text.h"
#include "chat/tool_calls/python_literal.h"
#include "chat/tool_calls/scan_rules.h"
#include "util/json_escape.h"

namespace ingot::chat::tool_calls {
namespace {

constexpr std::string_view kHermesClose = "</tool_call>";
constexpr std::string_view kMistralArgs = "[ARGS]";
constexpr std::string_view kMistralCallId = "[CALL_ID]";
constexpr std::string_view kBuiltinCall = ".call(";

}  // namespace

Outcome HermesCallParser::feed(char c) {
  if (!object_done_) {
    Outcome outcome = object_.feed(c);
    if (outcome.progress != Outcome::Progress::kDone) return outcome;
    object_done_ = true;
    return Outcome::more();
  }
  if (close_matched_.empty() && is_json_space(c)) return Outcome::more();
  close_matched_.push_back(c);
  if (close_matched_ == kHermesClose) return Outcome::done();
  if (kHermesClose.starts_with(close_matched_)) return Outcome::more();
  return Outcome::done(close_matched_);
}

Outcome HermesCallParser::finish() {
  if (!object_done_) return object_.finish();
  return Outcome::done();
}

Outcome MistralCallParser::feed(char c) {
  switch (phase_) {
    case Phase::kStart:
      if (is_json_space(c)) return Outcome::more();
      if (c == '[') {
        array_ = std::make_unique<CallListParser>(sink_, json_call_element);
        phase_ = Phase::kArray;
        return array_->feed(c);
      }
      phase_ = Phase::kName;
      [[fallthrough]];
    case Phase::kName:
      if (c == '[' && !name_.empty()) {
        phase_ = Phase::kTag;
        return tag_byte(c);
      }
      if (!is_name_byte(c)) return Outcome::failed();
      name_.push_back(c);
      return Outcome::more();
    case Phase::kArray:
      return array_->feed(c);
    case Phase::kTag:
      return tag_byte(c);
    case Phase::kCallId:
      if (c == '[') {
        phase_ = Phase::kTag;
        return tag_byte(c);
      }
      return std::isalnum(static_cast<unsigned char>(c)) ? Outcome::more() : Outcome::failed();
    case Phase::kArguments:
      return arguments_->feed(c);
  }
  return Outcome::failed();
}

Outcome MistralCallParser::tag_byte(char c) {
  tag_.push_back(c);
  if (tag_ == kMistralArgs) {
    phase_ = Phase::kArguments;
    arguments_.emplace(sink_, name_);
    return Outcome::more();
  }
  if (tag_ == kMistralCallId) {
    tag_.clear();
    phase_ = Phase::kCallId;
    return Outcome::more();
  }
  if (kMistralArgs.starts_with(tag_) || kMistralCallId.starts_with(tag_)) return Outcome::more();
  return Outcome::failed();
}

Outcome MistralCallParser::finish() {
  if (array_) return array_->finish();
  return arguments_ ? arguments_->finish() : Outcome::failed();
}

Outcome PythonTagCallParser::feed(char c) {
  switch (phase_) {
    case Phase::kStart:
      if (is_json_space(c)) return Outcome::more();
      if (c == '{') {
        phase_ = Phase::kObject;
        return object_.feed(c);
      }
      phase_ = Phase::kIdentifier;
      [[fallthrough]];
    case Phase::kIdentifier: {
      text_.push_back(c);
      size_t dot = text_.find('.');
      std::string_view identifier = std::string_view(text_).substr(0, dot);
      bool identifier_ok = !identifier.empty() &&
                           std::all_of(identifier.begin(), identifier.end(), is_identifier_byte);
      if (dot == std::string::npos && identifier_ok) return Outcome::more();
      std::string_view tail = std::string_view(text_).substr(dot == std::string::npos ? 0 : dot);
      if (identifier_ok && dot != std::string::npos && tail == kBuiltinCall) {
        phase_ = Phase::kBuiltin;
        return Outcome::more();
      }
      if (identifier_ok && dot != std::string::npos && kBuiltinCall.starts_with(tail)) {
        return Outcome::more();
      }
      start_code(text_);
      return Outcome::more();
    }
    case Phase::kObject:
      return object_.feed(c);
    case Phase::kBuiltin:
      text_.push_back(c);
      return Outcome::more();
    case Phase::kCode:
      sink_.append_arguments(json_escaped(std::string_view(&c, 1)));
      return Outcome::more();
  }
  return Outcome::failed();
}

void PythonTagCallParser::start_code(std::string_view code) {
  phase_ = Phase::kCode;
  sink_.open_call("python");
  sink_.append_arguments("{\"code\":\"" + json_escaped(code));
}

Outcome PythonTagCallParser::finish() {
  switch (phase_) {
    case Phase::kStart:
      return Outcome::failed();
    case Phase::kObject:
      return object_.finish();
    case Phase::kIdentifier:
      start_code(text_);
      [[fallthrough]];
    case Phase::kCode:
      sink_.append_arguments("\"}");
      return Outcome::done();
    case Phase::kBuiltin: {
      // name.call(key=value, ...), read as the Python call it is.
      std::optional<PythonCall> call = parse_python_call(text_);
      std::string_view suffix = kBuiltinCall.substr(0, kBuiltinCall.size() - 1);
      if (!call || !call->name.ends_with(suffix)) return Outcome::failed();
      sink_.open_call(call->name.substr(0, call->name.size() - suffix.size()));
      sink_.append_arguments(compact_json(call->arguments));
      return Outcome::done();
    }
  }
  return Outcome::failed();
}

Outcome HarmonyCallParser::feed(char c) {
  constexpr std::string_view kMessage = "<|message|>";
  switch (phase_) {
    case Phase::kName:
      if (is_name_byte(c)) {
        name_.push_back(c);
        return Outcome::more();
      }
      if (name_.empty()) return Outcome::failed();
      phase_ = Phase::kHeader;
      [[fallthrough]];
    case Phase::kHeader:
      header_.push_back(c);
      if (header_.ends_with(kMessage)) {
        phase_ = Phase::kArguments;
        arguments_.emplace(sink_, name_);
        return Outcome::more();
      }
      return header_.size() < 64 ? Outcome::more() : Outcome::failed();
    case Phase::kArguments:
      return arguments_->feed(c);
  }
  return Outcome::failed();
}

Outcome HarmonyCallParser::finish() {
  return arguments_ ? arguments_->finish() : Outcome::failed();
}

}  // namespace ingot::chat::tool_calls
