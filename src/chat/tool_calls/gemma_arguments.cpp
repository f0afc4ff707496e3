#include "chat/tool_calls/gemma_arguments.h"

#include <cctype>
#include <nlohmann/json.hpp>
#include <string_view>

#include "chat/tool_calls/json_text.h"
#include "chat/tool_calls/scan_rules.h"
#include "util/json_escape.h"

namespace ingot::chat::tool_calls {
namespace {

constexpr std::string_view kQuote = "<|\"|>";
constexpr size_t kMaxWord = 256;

bool is_word_byte(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.' ||
         c == '+';
}

}  // namespace

Outcome GemmaArgumentsParser::feed(char c) {
  std::string json;
  Status status = transcode(c, json);
  if (status == Status::kInvalid) return Outcome::failed();
  if (!json.empty() && !opened_) {
    sink_.open_call(name_);
    opened_ = true;
  }
  sink_.append_arguments(json);
  return status == Status::kComplete ? Outcome::done() : Outcome::more();
}

GemmaArgumentsParser::Status GemmaArgumentsParser::transcode(char c, std::string& json) {
  if (string_) return string_byte(c, json);
  if (in_word_) {
    if (is_word_byte(c) && word_.size() < kMaxWord) {
      word_.push_back(c);
      return Status::kMore;
    }
    Status ended = end_word(json);
    if (ended != Status::kMore) return ended;
  }
  if (!quote_.empty() || c == '<') {
    quote_.push_back(c);
    if (quote_ == kQuote) {
      quote_.clear();
      if (expect_ != Expect::kKey && expect_ != Expect::kKeyOrClose && expect_ != Expect::kValue &&
          expect_ != Expect::kValueOrClose) {
        return Status::kInvalid;
      }
      string_is_key_ = expect_ == Expect::kKey || expect_ == Expect::kKeyOrClose;
      string_.emplace(kQuote);
      json += '"';
      return Status::kMore;
    }
    return kQuote.starts_with(quote_) ? Status::kMore : Status::kInvalid;
  }
  return structural(c, json);
}

GemmaArgumentsParser::Status GemmaArgumentsParser::structural(char c, std::string& json) {
  if (is_json_space(c)) return Status::kMore;
  const bool at_value =
      expect_ == Expect::kValue || expect_ == Expect::kValueOrClose || expect_ == Expect::kOpen;
  const bool at_key = expect_ == Expect::kKey || expect_ == Expect::kKeyOrClose;
  if (c == '{' || c == '[') {
    if (!at_value || stack_.size() >= size_t{kMaxArgumentNesting}) return Status::kInvalid;
    if (expect_ == Expect::kOpen && c != '{') return Status::kInvalid;
    stack_.push_back(c);
    expect_ = c == '{' ? Expect::kKeyOrClose : Expect::kValueOrClose;
    json += c;
    return Status::kMore;
  }
  if (c == '}' || c == ']') {
    bool may_close =
        (c == '}' && (expect_ == Expect::kKeyOrClose || expect_ == Expect::kCommaOrClose) &&
         !stack_.empty() && stack_.back() == '{') ||
        (c == ']' && (expect_ == Expect::kValueOrClose || expect_ == Expect::kCommaOrClose) &&
         !stack_.empty() && stack_.back() == '[');
    if (!may_close) return Status::kInvalid;
    stack_.pop_back();
    json += c;
    return after_value();
  }
  if (c == ',' && expect_ == Expect::kCommaOrClose) {
    expect_ = stack_.back() == '{' ? Expect::kKey : Expect::kValue;
    json += c;
    return Status::kMore;
  }
  if (c == ':' && expect_ == Expect::kColon) {
    expect_ = Expect::kValue;
    json += c;
    return Status::kMore;
  }
  if (is_word_byte(c) && (at_key || (at_value && expect_ != Expect::kOpen))) {
    in_word_ = true;
    word_is_key_ = at_key;
    word_.assign(1, c);
    return Status::kMore;
  }
  return Status::kInvalid;
}

GemmaArgumentsParser::Status GemmaArgumentsParser::string_byte(char c, std::string& json) {
  std::string released;
  bool closed = string_->feed(c, released);
  append_json_escaped(json, released);
  if (!closed) return Status::kMore;
  string_.reset();
  json += '"';
  if (string_is_key_) {
    expect_ = Expect::kColon;
    return Status::kMore;
  }
  return after_value();
}

GemmaArgumentsParser::Status GemmaArgumentsParser::end_word(std::string& json) {
  in_word_ = false;
  if (word_is_key_) {
    json += compact_json(nlohmann::ordered_json(word_));
    expect_ = Expect::kColon;
    return Status::kMore;
  }
  nlohmann::ordered_json value = nlohmann::ordered_json::parse(word_, nullptr, false);
  if (value.is_discarded() || value.is_structured() || value.is_string()) {
    value = nlohmann::ordered_json(word_);
  }
  json += compact_json(value);
  return after_value();
}

GemmaArgumentsParser::Status GemmaArgumentsParser::after_value() {
  if (stack_.empty()) return Status::kComplete;
  expect_ = Expect::kCommaOrClose;
  return Status::kMore;
}

}  // namespace ingot::chat::tool_calls
