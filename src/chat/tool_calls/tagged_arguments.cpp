#include "chat/tool_calls/tagged_arguments.h"

#include "chat/tool_calls/json_text.h"

namespace ingot::chat::tool_calls {
namespace {

// A key or an attribute list longer than this is not one.
constexpr size_t kMaxKey = 256;

}  // namespace

TaggedArgumentsParser::TaggedArgumentsParser(const TaggedArgumentSpelling& spelling,
                                             std::string tool, const ToolSchemas& schemas,
                                             CallSink& sink)
    : spelling_(spelling),
      tool_(std::move(tool)),
      schemas_(schemas),
      sink_(sink),
      boundary_({spelling.key_open}),
      until_(spelling.key_close) {
  sink_.open_call(tool_);
  sink_.append_arguments("{");
}

Outcome TaggedArgumentsParser::feed(char c) {
  std::string released;
  switch (phase_) {
    case Phase::kBoundary:
      return boundary_byte(c);
    case Phase::kKey:
      if (until_.feed(c, released)) {
        key_ += released;
        if (spelling_.attributes_close.empty()) {
          phase_ = Phase::kValueOpen;
          boundary_ = LiteralMatch({spelling_.value_open});
          if (spelling_.value_open.empty()) {
            phase_ = Phase::kValue;
            until_ = TextUntil(spelling_.value_close);
          }
        } else {
          phase_ = Phase::kAttributes;
          until_ = TextUntil(spelling_.attributes_close);
        }
        return Outcome::more();
      }
      key_ += released;
      return key_.size() <= kMaxKey ? Outcome::more() : Outcome::failed();
    case Phase::kAttributes:
      if (until_.feed(c, released)) {
        attributes_ += released;
        phase_ = Phase::kValue;
        until_ = TextUntil(spelling_.value_close);
        if (!spelling_.value_open.empty()) {
          phase_ = Phase::kValueOpen;
          boundary_ = LiteralMatch({spelling_.value_open});
        }
        return Outcome::more();
      }
      attributes_ += released;
      return attributes_.size() <= kMaxKey ? Outcome::more() : Outcome::failed();
    case Phase::kValueOpen:
      switch (boundary_.feed(c)) {
        case LiteralMatch::State::kPending:
          return Outcome::more();
        case LiteralMatch::State::kMatched:
          phase_ = Phase::kValue;
          until_ = TextUntil(spelling_.value_close);
          return Outcome::more();
        case LiteralMatch::State::kMismatch:
          return Outcome::failed();
      }
      return Outcome::failed();
    case Phase::kValue:
      if (until_.feed(c, released)) {
        value_ += released;
        end_value();
        return Outcome::more();
      }
      value_ += released;
      return Outcome::more();
  }
  return Outcome::failed();
}

Outcome TaggedArgumentsParser::boundary_byte(char c) {
  switch (boundary_.feed(c)) {
    case LiteralMatch::State::kPending:
      return Outcome::more();
    case LiteralMatch::State::kMatched:
      start_key();
      return Outcome::more();
    case LiteralMatch::State::kMismatch:
      close_object();
      return Outcome::done(boundary_.consumed());
  }
  return Outcome::failed();
}

void TaggedArgumentsParser::start_key() {
  phase_ = Phase::kKey;
  key_.clear();
  attributes_.clear();
  value_.clear();
  until_ = TextUntil(spelling_.key_close);
}

void TaggedArgumentsParser::end_value() {
  std::string_view value = value_;
  if (spelling_.newline_padded) {
    if (value.starts_with('\n')) value.remove_prefix(1);
    if (value.ends_with('\n')) value.remove_suffix(1);
  }
  std::string key(trim_json_space(key_));
  std::string member = any_member_ ? "," : "";
  member += compact_json(nlohmann::ordered_json(key)) + ":";
  if (attributes_.find("string=\"true\"") != std::string::npos) {
    member += compact_json(nlohmann::ordered_json(std::string(value)));
  } else if (attributes_.find("string=\"false\"") != std::string::npos) {
    nlohmann::ordered_json parsed = nlohmann::ordered_json::parse(value, nullptr, false);
    member += parsed.is_discarded() ? typed_argument(value, schemas_.parameter(tool_, key))
                                    : compact_json(parsed);
  } else {
    member += typed_argument(value, schemas_.parameter(tool_, key));
  }
  sink_.append_arguments(member);
  any_member_ = true;
  phase_ = Phase::kBoundary;
  boundary_ = LiteralMatch({spelling_.key_open});
}

void TaggedArgumentsParser::close_object() {
  if (closed_) return;
  closed_ = true;
  sink_.append_arguments("}");
}

Outcome TaggedArgumentsParser::finish() {
  close_object();
  return Outcome::done();
}

}  // namespace ingot::chat::tool_calls
