#include "chat/tool_calls/json_call_parsers.h"

#include <nlohmann/json.hpp>

#include "chat/tool_calls/call_list_parser.h"

namespace ingot::chat::tool_calls {

ObjectCallParser::ObjectCallParser(CallSink& sink, bool allow_wrapper)
    : sink_(sink), allow_wrapper_(allow_wrapper) {}

ObjectCallParser::~ObjectCallParser() = default;

Outcome ObjectCallParser::feed(char c) {
  switch (phase_) {
    case Phase::kBeforeOpen:
      if (is_json_space(c)) return Outcome::more();
      if (c != '{') return Outcome::failed();
      phase_ = Phase::kKeyOrClose;
      return Outcome::more();
    case Phase::kKeyOrClose:
    case Phase::kKey:
      if (is_json_space(c)) return Outcome::more();
      if (c == '}' && phase_ == Phase::kKeyOrClose) return close_object();
      if (c != '"') return Outcome::failed();
      key_.clear();
      phase_ = Phase::kInKey;
      return Outcome::more();
    case Phase::kInKey:
      if (key_escape_) {
        key_escape_ = false;
      } else if (c == '\\') {
        key_escape_ = true;
      } else if (c == '"') {
        phase_ = Phase::kColon;
        return Outcome::more();
      } else if (static_cast<unsigned char>(c) < 0x20) {
        return Outcome::failed();
      }
      key_.push_back(c);
      return Outcome::more();
    case Phase::kColon:
      if (is_json_space(c)) return Outcome::more();
      if (c != ':') return Outcome::failed();
      return begin_value(c);
    case Phase::kValue:
      return value_byte(c);
    case Phase::kNested: {
      Outcome outcome = nested_->feed(c);
      if (outcome.progress != Outcome::Progress::kDone) return outcome;
      nested_.reset();
      phase_ = Phase::kAfterValue;
      opened_ = true;
      return outcome.spill.empty() ? Outcome::more() : after_value(outcome.spill[0]);
    }
    case Phase::kAfterValue:
      return after_value(c);
  }
  return Outcome::failed();
}

Outcome ObjectCallParser::begin_value(char) {
  bool is_arguments_key = key_ == "arguments" || key_ == "parameters";
  if ((key_ == "name" || key_ == "tool_name") && !name_) {
    role_ = Role::kName;
  } else if (is_arguments_key && !arguments_seen_) {
    role_ = Role::kArguments;
    arguments_seen_ = true;
  } else if (allow_wrapper_ && key_ == "tool_calls" && !name_ && !arguments_seen_) {
    role_ = Role::kWrapper;
  } else {
    role_ = Role::kOther;
  }
  value_ = JsonValueScanner();
  value_text_.clear();
  phase_ = Phase::kValue;
  return Outcome::more();
}

Outcome ObjectCallParser::value_byte(char c) {
  if (role_ == Role::kWrapper) {
    if (is_json_space(c)) return Outcome::more();
    if (c != '[') return Outcome::failed();
    nested_ = std::make_unique<CallListParser>(sink_, json_call_element);
    phase_ = Phase::kNested;
    return nested_->feed(c);
  }
  JsonValueScanner::Step step = value_.feed(c);
  if (step.status == JsonValueScanner::Status::kInvalid) return Outcome::failed();
  if (role_ == Role::kArguments && value_.first_byte() != 0 && value_.first_byte() != '{') {
    return Outcome::failed();
  }
  if (role_ == Role::kArguments && !streaming_ && !early_arguments_ && step.significant && name_) {
    // The name is known and the arguments begin: the call is certain enough
    // to announce, so the arguments can stream from here.
    sink_.open_call(*name_);
    opened_ = true;
    streaming_ = true;
  }
  if (step.consumed && step.significant) {
    if (streaming_) {
      sink_.append_arguments(std::string_view(&c, 1));
    } else if (role_ != Role::kOther) {
      value_text_.push_back(c);
    }
  }
  if (step.status != JsonValueScanner::Status::kComplete) return Outcome::more();
  Outcome ended = end_value();
  if (ended.progress != Outcome::Progress::kMore || step.consumed) return ended;
  return after_value(c);
}

Outcome ObjectCallParser::end_value() {
  phase_ = Phase::kAfterValue;
  if (role_ == Role::kName) {
    auto parsed = nlohmann::json::parse(value_text_, nullptr, false);
    if (!parsed.is_string() || parsed.get<std::string>().empty()) return Outcome::failed();
    name_ = parsed.get<std::string>();
  } else if (role_ == Role::kArguments && !streaming_) {
    early_arguments_ = value_text_;
  }
  streaming_ = false;
  return Outcome::more();
}

Outcome ObjectCallParser::after_value(char c) {
  if (is_json_space(c)) return Outcome::more();
  if (c == ',') {
    phase_ = Phase::kKey;
    return Outcome::more();
  }
  if (c == '}') return close_object();
  return Outcome::failed();
}

Outcome ObjectCallParser::close_object() {
  if (opened_) return Outcome::done();
  if (!name_ || !early_arguments_) return Outcome::failed();
  sink_.open_call(*name_);
  sink_.append_arguments(*early_arguments_);
  opened_ = true;
  return Outcome::done();
}

Outcome ObjectCallParser::finish() {
  if (nested_) nested_->finish();
  return opened_ ? Outcome::done() : Outcome::failed();
}

std::unique_ptr<CallSyntax> json_call_element(CallSink& sink) {
  return std::make_unique<ObjectCallParser>(sink, false);
}

Outcome JsonArgumentsParser::feed(char c) {
  JsonValueScanner::Step step = scanner_.feed(c);
  if (step.status == JsonValueScanner::Status::kInvalid) return Outcome::failed();
  if (scanner_.first_byte() != 0 && scanner_.first_byte() != '{') return Outcome::failed();
  if (!step.significant) return Outcome::more();
  if (!opened_) {
    sink_.open_call(name_);
    opened_ = true;
  }
  sink_.append_arguments(std::string_view(&c, 1));
  if (step.status == JsonValueScanner::Status::kComplete) return Outcome::done();
  return Outcome::more();
}

}  // namespace ingot::chat::tool_calls
