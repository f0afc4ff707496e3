#include "chat/tool_calls/json_value_scanner.h"

#include <cctype>

namespace ingot::chat::tool_calls {
namespace {

bool is_space(char c) {
  return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

bool is_token_byte(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '+' || c == '.';
}

// JSON's number syntax: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
bool is_json_number(const std::string& s) {
  size_t i = 0;
  auto digits = [&] {
    size_t start = i;
    while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i;
    return i > start;
  };
  if (i < s.size() && s[i] == '-') ++i;
  if (i < s.size() && s[i] == '0') {
    ++i;
  } else if (!digits()) {
    return false;
  }
  if (i < s.size() && s[i] == '.') {
    ++i;
    if (!digits()) return false;
  }
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    if (!digits()) return false;
  }
  return i == s.size();
}

}  // namespace

JsonValueScanner::Step JsonValueScanner::feed(char c) {
  if (in_string_) return in_string(c);
  if (in_token_) return in_token(c);
  if (is_space(c)) return {Status::kIncomplete, true, false};
  if (first_ == 0) first_ = c;
  switch (expect_) {
    case Expect::kValue:
      return start_value(c);
    case Expect::kValueOrClose:
      if (c == ']') return close(c);
      return start_value(c);
    case Expect::kKeyOrClose:
      if (c == '}') return close(c);
      [[fallthrough]];
    case Expect::kKey:
      if (c != '"') return {Status::kInvalid};
      in_string_ = true;
      string_is_key_ = true;
      return {};
    case Expect::kColon:
      if (c != ':') return {Status::kInvalid};
      expect_ = Expect::kValue;
      return {};
    case Expect::kCommaOrClose:
      if (c == '}' || c == ']') return close(c);
      if (c != ',') return {Status::kInvalid};
      expect_ = stack_.back() == '{' ? Expect::kKey : Expect::kValue;
      return {};
  }
  return {Status::kInvalid};
}

JsonValueScanner::Status JsonValueScanner::finish() {
  if (done_) return Status::kComplete;
  if (in_token_ && stack_.empty() && token_is_valid()) return Status::kComplete;
  return Status::kIncomplete;
}

JsonValueScanner::Step JsonValueScanner::start_value(char c) {
  if (c == '{' || c == '[') {
    stack_.push_back(c);
    expect_ = c == '{' ? Expect::kKeyOrClose : Expect::kValueOrClose;
    return {};
  }
  if (c == '"') {
    in_string_ = true;
    string_is_key_ = false;
    return {};
  }
  if (c == '-' || std::isdigit(static_cast<unsigned char>(c)) || c == 't' || c == 'f' || c == 'n') {
    in_token_ = true;
    token_.assign(1, c);
    return {};
  }
  return {Status::kInvalid};
}

JsonValueScanner::Step JsonValueScanner::after_value() {
  if (stack_.empty()) {
    done_ = true;
    return {Status::kComplete};
  }
  expect_ = Expect::kCommaOrClose;
  return {};
}

JsonValueScanner::Step JsonValueScanner::in_string(char c) {
  auto byte = static_cast<unsigned char>(c);
  if (unicode_digits_ > 0) {
    if (!std::isxdigit(byte)) return {Status::kInvalid};
    --unicode_digits_;
    return {};
  }
  if (escape_) {
    escape_ = false;
    if (c == 'u') {
      unicode_digits_ = 4;
      return {};
    }
    static constexpr std::string_view kEscapes = "\"\\/bfnrt";
    if (kEscapes.find(c) == std::string_view::npos) return {Status::kInvalid};
    return {};
  }
  if (c == '\\') {
    escape_ = true;
    return {};
  }
  if (byte < 0x20) return {Status::kInvalid};
  if (c != '"') return {};
  in_string_ = false;
  if (string_is_key_) {
    expect_ = Expect::kColon;
    return {};
  }
  return after_value();
}

JsonValueScanner::Step JsonValueScanner::in_token(char c) {
  if (is_token_byte(c)) {
    token_.push_back(c);
    if (token_.size() > 64) return {Status::kInvalid};
    return {};
  }
  in_token_ = false;
  if (!token_is_valid()) return {Status::kInvalid};
  if (stack_.empty()) {
    done_ = true;
    return {Status::kComplete, false};
  }
  expect_ = Expect::kCommaOrClose;
  return feed(c);
}

JsonValueScanner::Step JsonValueScanner::close(char c) {
  char open = c == '}' ? '{' : '[';
  if (stack_.empty() || stack_.back() != open) return {Status::kInvalid};
  stack_.pop_back();
  return after_value();
}

bool JsonValueScanner::token_is_valid() const {
  return token_ == "true" || token_ == "false" || token_ == "null" || is_json_number(token_);
}

}  // namespace ingot::chat::tool_calls
