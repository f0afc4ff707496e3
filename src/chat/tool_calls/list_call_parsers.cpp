#include "chat/tool_calls/list_call_parsers.h"

#include <cctype>
#include <nlohmann/json.hpp>
#include <optional>
#include <string_view>

#include "chat/tool_calls/argument_typing.h"
#include "chat/tool_calls/python_literal.h"

namespace ingot::chat::tool_calls {
namespace {

using Json = nlohmann::ordered_json;

// Past this, a call's text is not one a model writes: the parse gives up
// rather than buffer without bound.
constexpr size_t kMaxCallText = 1 << 20;
constexpr int kMaxDepth = 64;

bool is_name_byte(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.';
}

void skip_space(std::string_view text, size_t& at) {
  while (at < text.size() && is_json_space(text[at])) ++at;
}

// `name(key=value, ...)` as the call's name and its arguments object.
std::optional<std::pair<std::string, Json>> read_python_call(std::string_view text) {
  size_t at = 0;
  skip_space(text, at);
  size_t start = at;
  while (at < text.size() && is_name_byte(text[at])) ++at;
  std::string name(text.substr(start, at - start));
  skip_space(text, at);
  if (name.empty() || at >= text.size() || text[at] != '(') return std::nullopt;
  ++at;
  Json arguments = Json::object();
  for (;;) {
    skip_space(text, at);
    if (at < text.size() && text[at] == ')') break;
    size_t key_start = at;
    while (at < text.size() && is_name_byte(text[at])) ++at;
    std::string key(text.substr(key_start, at - key_start));
    skip_space(text, at);
    if (key.empty() || at >= text.size() || text[at] != '=') return std::nullopt;
    ++at;
    std::optional<Json> value = read_python_literal(text, at);
    if (!value) return std::nullopt;
    arguments[key] = std::move(*value);
    skip_space(text, at);
    if (at < text.size() && text[at] == ',') {
      ++at;
    } else if (at >= text.size() || text[at] != ')') {
      return std::nullopt;
    }
  }
  ++at;
  skip_space(text, at);
  if (at != text.size()) return std::nullopt;
  return std::make_pair(std::move(name), std::move(arguments));
}

}  // namespace

Outcome NameKeyedListParser::feed(char c) {
  switch (phase_) {
    case Phase::kBeforeOpen:
      if (is_json_space(c)) return Outcome::more();
      if (c != '[') return Outcome::failed();
      phase_ = Phase::kElementOrClose;
      return Outcome::more();
    case Phase::kElementOrClose:
      if (is_json_space(c)) return Outcome::more();
      if (c == ']') return any_call_ ? Outcome::done() : Outcome::failed();
      phase_ = Phase::kElement;
      element_ = JsonValueScanner();
      text_.clear();
      return element_byte(c);
    case Phase::kElement:
      return element_byte(c);
    case Phase::kCommaOrClose:
      if (is_json_space(c)) return Outcome::more();
      if (c == ',') {
        phase_ = Phase::kElementOrClose;
        return Outcome::more();
      }
      if (c == ']') return Outcome::done();
      return Outcome::failed();
  }
  return Outcome::failed();
}

Outcome NameKeyedListParser::element_byte(char c) {
  JsonValueScanner::Step step = element_.feed(c);
  if (step.status == JsonValueScanner::Status::kInvalid || text_.size() > kMaxCallText) {
    return Outcome::failed();
  }
  if (element_.first_byte() != 0 && element_.first_byte() != '{') return Outcome::failed();
  text_.push_back(c);
  if (step.status != JsonValueScanner::Status::kComplete) return Outcome::more();
  Json element = Json::parse(text_, nullptr, false);
  if (!element.is_object() || element.size() != 1 || !element.begin().value().is_object()) {
    return Outcome::failed();
  }
  sink_.open_call(element.begin().key());
  sink_.append_arguments(compact_json(element.begin().value()));
  any_call_ = true;
  phase_ = Phase::kCommaOrClose;
  return Outcome::more();
}

Outcome NameKeyedListParser::finish() {
  return any_call_ ? Outcome::done() : Outcome::failed();
}

Outcome PythonCallListParser::feed(char c) {
  switch (phase_) {
    case Phase::kBeforeOpen:
      if (is_json_space(c)) return Outcome::more();
      if (c != '[') return Outcome::failed();
      phase_ = Phase::kCallOrClose;
      return Outcome::more();
    case Phase::kCallOrClose:
      if (is_json_space(c)) return Outcome::more();
      if (c == ']') return any_call_ ? Outcome::done() : Outcome::failed();
      phase_ = Phase::kCall;
      text_.clear();
      depth_ = 0;
      return call_byte(c);
    case Phase::kCall:
      return call_byte(c);
    case Phase::kCommaOrClose:
      if (is_json_space(c)) return Outcome::more();
      if (c == ',') {
        phase_ = Phase::kCallOrClose;
        return Outcome::more();
      }
      if (c == ']') return Outcome::done();
      return Outcome::failed();
  }
  return Outcome::failed();
}

Outcome PythonCallListParser::call_byte(char c) {
  if (text_.size() > kMaxCallText) return Outcome::failed();
  text_.push_back(c);
  if (quote_ != 0) {
    if (escape_) {
      escape_ = false;
    } else if (c == '\\') {
      escape_ = true;
    } else if (c == quote_) {
      quote_ = 0;
    }
    return Outcome::more();
  }
  if (c == '\'' || c == '"') {
    quote_ = c;
  } else if (c == '(' || c == '[' || c == '{') {
    if (++depth_ > kMaxDepth) return Outcome::failed();
  } else if (c == ')' || c == ']' || c == '}') {
    if (--depth_ < 0) return Outcome::failed();
    if (depth_ == 0 && c == ')') {
      if (!send_call()) return Outcome::failed();
      phase_ = Phase::kCommaOrClose;
    }
  } else if (depth_ == 0 && !is_name_byte(c) && !is_json_space(c)) {
    return Outcome::failed();
  }
  return Outcome::more();
}

bool PythonCallListParser::send_call() {
  auto call = read_python_call(text_);
  if (!call) return false;
  sink_.open_call(call->first);
  sink_.append_arguments(compact_json(call->second));
  any_call_ = true;
  return true;
}

Outcome PythonCallListParser::finish() {
  return any_call_ ? Outcome::done() : Outcome::failed();
}

}  // namespace ingot::chat::tool_calls
