#include "chat/tool_calls/marker_call_parsers.h"

#include <algorithm>
#include <cctype>
#include <nlohmann/json.hpp>
#include <optional>
#include <string_view>

namespace ingot::chat::tool_calls {
namespace {

constexpr std::string_view kHermesClose = "</tool_call>";
constexpr std::string_view kMistralArgs = "[ARGS]";
constexpr std::string_view kMistralCallId = "[CALL_ID]";
constexpr std::string_view kBuiltinCall = ".call(";

bool is_name_byte(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.';
}

bool is_identifier_byte(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

// JSON string content for `text` (no quotes). Bytes >= 0x80 pass through:
// the text is UTF-8 and the sequence completes in later pieces.
std::string json_escape(std::string_view text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          static constexpr char kHex[] = "0123456789abcdef";
          out += "\\u00";
          out += kHex[(c >> 4) & 0xf];
          out += kHex[c & 0xf];
        } else {
          out += c;
        }
    }
  }
  return out;
}

// One value of a builtin call's keyword argument: a quoted string, or a
// JSON/Python literal (True, False, None, numbers).
std::optional<nlohmann::ordered_json> builtin_value(std::string_view text) {
  if (text.size() >= 2 && (text.front() == '"' || text.front() == '\'') &&
      text.back() == text.front()) {
    return nlohmann::ordered_json(std::string(text.substr(1, text.size() - 2)));
  }
  if (text == "True") return nlohmann::ordered_json(true);
  if (text == "False") return nlohmann::ordered_json(false);
  if (text == "None") return nlohmann::ordered_json(nullptr);
  auto parsed = nlohmann::ordered_json::parse(text, nullptr, false);
  if (parsed.is_discarded()) return std::nullopt;
  return parsed;
}

std::string_view trim(std::string_view text) {
  while (!text.empty() && is_json_space(text.front())) text.remove_prefix(1);
  while (!text.empty() && is_json_space(text.back())) text.remove_suffix(1);
  return text;
}

// `key="value", key2=3)` (the text after ".call(") as a JSON object, or
// nothing when it is not that shape. Quotes may hold commas; no escapes.
std::optional<nlohmann::ordered_json> builtin_arguments(std::string_view text) {
  text = trim(text);
  if (text.empty() || text.back() != ')') return std::nullopt;
  text.remove_suffix(1);
  nlohmann::ordered_json arguments = nlohmann::ordered_json::object();
  while (!trim(text).empty()) {
    size_t end = 0;
    char quote = 0;
    for (; end < text.size(); ++end) {
      char c = text[end];
      if (quote != 0) {
        if (c == quote) quote = 0;
      } else if (c == '"' || c == '\'') {
        quote = c;
      } else if (c == ',') {
        break;
      }
    }
    std::string_view item = text.substr(0, end);
    text = end < text.size() ? text.substr(end + 1) : std::string_view();
    size_t equals = item.find('=');
    if (equals == std::string_view::npos) return std::nullopt;
    std::string_view key = trim(item.substr(0, equals));
    if (key.empty()) return std::nullopt;
    for (char c : key) {
      if (!is_identifier_byte(c)) return std::nullopt;
    }
    std::optional<nlohmann::ordered_json> value = builtin_value(trim(item.substr(equals + 1)));
    if (!value) return std::nullopt;
    arguments[std::string(key)] = std::move(*value);
  }
  return arguments;
}

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
        array_ = std::make_unique<ArrayCallParser>(sink_);
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
      return arguments_byte(c);
  }
  return Outcome::failed();
}

Outcome MistralCallParser::tag_byte(char c) {
  tag_.push_back(c);
  if (tag_ == kMistralArgs) {
    phase_ = Phase::kArguments;
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

Outcome MistralCallParser::arguments_byte(char c) {
  JsonValueScanner::Step step = arguments_.feed(c);
  if (step.status == JsonValueScanner::Status::kInvalid) return Outcome::failed();
  if (arguments_.first_byte() != 0 && arguments_.first_byte() != '{') return Outcome::failed();
  if (!step.significant) return Outcome::more();
  if (!opened_) {
    sink_.open_call(name_);
    opened_ = true;
  }
  sink_.append_arguments(std::string_view(&c, 1));
  if (step.status == JsonValueScanner::Status::kComplete) return Outcome::done();
  return Outcome::more();
}

Outcome MistralCallParser::finish() {
  if (array_) return array_->finish();
  return opened_ ? Outcome::done() : Outcome::failed();
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
      sink_.append_arguments(json_escape(std::string_view(&c, 1)));
      return Outcome::more();
  }
  return Outcome::failed();
}

void PythonTagCallParser::start_code(std::string_view code) {
  phase_ = Phase::kCode;
  sink_.open_call("python");
  sink_.append_arguments("{\"code\":\"" + json_escape(code));
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
      size_t dot = text_.find('.');
      std::optional<nlohmann::ordered_json> arguments =
          builtin_arguments(std::string_view(text_).substr(dot + kBuiltinCall.size()));
      if (!arguments) return Outcome::failed();
      sink_.open_call(text_.substr(0, dot));
      // A reply's bytes need not be UTF-8: replaced, never thrown on.
      sink_.append_arguments(
          arguments->dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace));
      return Outcome::done();
    }
  }
  return Outcome::failed();
}

Outcome HarmonyCallParser::feed(char c) {
  constexpr std::string_view kMessage = "<|message|>";
  switch (phase_) {
    case Phase::kName:
      if (is_name_byte(c) || c == '.') {
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
        return Outcome::more();
      }
      return header_.size() < 64 ? Outcome::more() : Outcome::failed();
    case Phase::kArguments: {
      const JsonValueScanner::Step step = arguments_.feed(c);
      if (step.status == JsonValueScanner::Status::kInvalid) return Outcome::failed();
      if (arguments_.first_byte() != 0 && arguments_.first_byte() != '{') return Outcome::failed();
      if (!step.significant) return Outcome::more();
      if (!opened_) {
        sink_.open_call(name_);
        opened_ = true;
      }
      sink_.append_arguments(std::string_view(&c, 1));
      if (step.status == JsonValueScanner::Status::kComplete) return Outcome::done();
      return Outcome::more();
    }
  }
  return Outcome::failed();
}

Outcome HarmonyCallParser::finish() {
  return opened_ ? Outcome::done() : Outcome::failed();
}

}  // namespace ingot::chat::tool_calls
