#include "chat/tool_calls/list_call_parsers.h"

#include <nlohmann/json.hpp>
#include <optional>

#include "chat/tool_calls/json_text.h"
#include "chat/tool_calls/python_literal.h"
#include "chat/tool_calls/scan_rules.h"

namespace ingot::chat::tool_calls {
namespace {

// Past these, an element is not one a model writes: the parse gives up
// rather than buffer without bound.
constexpr size_t kMaxCallText = 1 << 20;

}  // namespace

Outcome NameKeyedCallParser::feed(char c) {
  JsonValueScanner::Step step = object_.feed(c);
  if (step.status == JsonValueScanner::Status::kInvalid || text_.size() > kMaxCallText) {
    return Outcome::failed();
  }
  if (object_.first_byte() != 0 && object_.first_byte() != '{') return Outcome::failed();
  text_.push_back(c);
  if (step.status != JsonValueScanner::Status::kComplete) return Outcome::more();
  auto element = nlohmann::ordered_json::parse(text_, nullptr, false);
  if (!element.is_object() || element.size() != 1 || !element.begin().value().is_object()) {
    return Outcome::failed();
  }
  sink_.open_call(element.begin().key());
  sink_.append_arguments(compact_json(element.begin().value()));
  return Outcome::done();
}

Outcome PythonCallParser::feed(char c) {
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
    if (++depth_ > kMaxArgumentNesting) return Outcome::failed();
  } else if (c == ')' || c == ']' || c == '}') {
    if (--depth_ < 0) return Outcome::failed();
    if (depth_ == 0 && c == ')') {
      std::optional<PythonCall> call = parse_python_call(text_);
      if (!call) return Outcome::failed();
      sink_.open_call(call->name);
      sink_.append_arguments(compact_json(call->arguments));
      return Outcome::done();
    }
  } else if (depth_ == 0 && !is_name_byte(c) && !is_json_space(c)) {
    return Outcome::failed();
  }
  return Outcome::more();
}

std::unique_ptr<CallSyntax> name_keyed_call_element(CallSink& sink) {
  return std::make_unique<NameKeyedCallParser>(sink);
}

std::unique_ptr<CallSyntax> python_call_element(CallSink& sink) {
  return std::make_unique<PythonCallParser>(sink);
}

}  // namespace ingot::chat::tool_calls
