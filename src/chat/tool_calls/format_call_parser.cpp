#include "chat/tool_calls/format_call_parser.h"

#include "chat/tool_calls/call_list_parser.h"
#include "chat/tool_calls/element_arguments.h"
#include "chat/tool_calls/gemma_arguments.h"
#include "chat/tool_calls/json_call_parsers.h"
#include "chat/tool_calls/list_call_parsers.h"
#include "chat/tool_calls/tagged_arguments.h"

namespace ingot::chat::tool_calls {
namespace {

// Past these a name or a skipped id is not one: the text was not a call.
constexpr size_t kMaxName = 256;
constexpr size_t kMaxSkip = 64;

}  // namespace

FormatCallParser::FormatCallParser(const CallFormat& format, bool in_section, CallSink& sink,
                                   const ToolSchemas& schemas)
    : format_(format),
      in_section_(in_section),
      sink_(sink),
      schemas_(schemas),
      phase_(in_section ? Phase::kSection : Phase::kHeader) {
  if (in_section) {
    match_ = LiteralMatch({format.call_open, format.section_close});
  } else {
    begin_call();
  }
}

FormatCallParser::~FormatCallParser() = default;

Outcome FormatCallParser::feed(char c) {
  Outcome outcome = step(c);
  while (outcome.progress == Outcome::Progress::kMore && !replay_.empty()) {
    char next = replay_.front();
    replay_.erase(0, 1);
    outcome = step(next);
  }
  if (outcome.progress != Outcome::Progress::kMore) {
    outcome.spill += std::exchange(replay_, std::string());
  }
  return outcome;
}

void FormatCallParser::replay(std::string_view bytes) {
  replay_.insert(0, bytes);
}

Outcome FormatCallParser::step(char c) {
  switch (phase_) {
    case Phase::kSection:
      return section_byte(c);
    case Phase::kHeader:
      return header_byte(c);
    case Phase::kBody:
      return body_byte(c);
    case Phase::kClose:
      return close_byte(c);
  }
  return Outcome::failed();
}

Outcome FormatCallParser::section_byte(char c) {
  switch (match_.feed(c)) {
    case LiteralMatch::State::kPending:
      return Outcome::more();
    case LiteralMatch::State::kMatched:
      if (match_.matched() == 1) return Outcome::done();
      begin_call();
      return Outcome::more();
    case LiteralMatch::State::kMismatch:
      if (calls_ == 0) return Outcome::failed();
      return Outcome::done(match_.consumed());
  }
  return Outcome::failed();
}

void FormatCallParser::begin_call() {
  phase_ = Phase::kHeader;
  piece_ = 0;
  name_.clear();
  begin_piece();
  if (format_.header.empty()) end_header();
}

void FormatCallParser::begin_piece() {
  if (piece_ >= format_.header.size()) return;
  const HeaderPiece& piece = format_.header[piece_];
  name_started_ = false;
  skipped_ = 0;
  if (piece.kind == HeaderPiece::Kind::kLiteral) match_ = LiteralMatch({piece.text});
  if (piece.kind == HeaderPiece::Kind::kSkipTo) until_.emplace(piece.text);
}

Outcome FormatCallParser::header_byte(char c) {
  const HeaderPiece& piece = format_.header[piece_];
  switch (piece.kind) {
    case HeaderPiece::Kind::kLiteral:
      switch (match_.feed(c)) {
        case LiteralMatch::State::kPending:
          return Outcome::more();
        case LiteralMatch::State::kMatched:
          break;
        case LiteralMatch::State::kMismatch:
          return Outcome::failed();
      }
      break;
    case HeaderPiece::Kind::kName:
      if (!name_started_ && is_json_space(c)) return Outcome::more();
      if (is_name_byte(c)) {
        name_started_ = true;
        name_.push_back(c);
        return name_.size() <= kMaxName ? Outcome::more() : Outcome::failed();
      }
      if (name_.empty()) return Outcome::failed();
      replay_.insert(replay_.begin(), c);
      break;
    case HeaderPiece::Kind::kSkipTo: {
      std::string released;
      bool ended = until_->feed(c, released);
      skipped_ += released.size();
      if (skipped_ > kMaxSkip) return Outcome::failed();
      if (!ended) return Outcome::more();
      break;
    }
  }
  ++piece_;
  begin_piece();
  if (piece_ == format_.header.size()) return end_header();
  return Outcome::more();
}

Outcome FormatCallParser::end_header() {
  phase_ = Phase::kBody;
  if (!format_.content_name.empty() && name_ == format_.content_name) return Outcome::done();
  body_ = make_body();
  return Outcome::more();
}

std::unique_ptr<CallSyntax> FormatCallParser::make_body() {
  switch (format_.arguments) {
    case ArgumentsForm::kJsonObject:
      return std::make_unique<JsonArgumentsParser>(sink_, name_);
    case ArgumentsForm::kTagged:
      return std::make_unique<TaggedArgumentsParser>(format_.tagged, name_, schemas_, sink_);
    case ArgumentsForm::kGemma:
      return std::make_unique<GemmaArgumentsParser>(sink_, name_);
    case ArgumentsForm::kElements:
      return std::make_unique<ElementArgumentsParser>(format_.element_marker, name_, schemas_,
                                                      sink_);
    case ArgumentsForm::kJsonCall:
      return json_call_element(sink_);
    case ArgumentsForm::kJsonCallList:
      return std::make_unique<CallListParser>(sink_, json_call_element);
    case ArgumentsForm::kNameKeyedList:
      return std::make_unique<CallListParser>(sink_, name_keyed_call_element);
    case ArgumentsForm::kPythonCallList:
      return std::make_unique<CallListParser>(sink_, python_call_element);
  }
  return nullptr;
}

Outcome FormatCallParser::body_byte(char c) {
  Outcome outcome = body_->feed(c);
  if (outcome.progress != Outcome::Progress::kDone) return outcome;
  return end_body(std::move(outcome.spill));
}

Outcome FormatCallParser::end_body(std::string spill) {
  phase_ = Phase::kClose;
  piece_ = 0;
  if (format_.call_close.empty()) return end_call(std::move(spill));
  match_ = LiteralMatch({format_.call_close[0]});
  replay(spill);
  return Outcome::more();
}

Outcome FormatCallParser::close_byte(char c) {
  switch (match_.feed(c)) {
    case LiteralMatch::State::kPending:
      return Outcome::more();
    case LiteralMatch::State::kMatched:
      if (++piece_ < format_.call_close.size()) {
        match_ = LiteralMatch({format_.call_close[piece_]});
        return Outcome::more();
      }
      return end_call({});
    case LiteralMatch::State::kMismatch:
      // A call whose close is missing or different ends all the same; the
      // bytes read go back.
      return end_call(match_.consumed());
  }
  return Outcome::failed();
}

Outcome FormatCallParser::end_call(std::string spill) {
  ++calls_;
  body_.reset();
  if (!in_section_ || format_.single_call) return Outcome::done(std::move(spill));
  phase_ = Phase::kSection;
  match_ = LiteralMatch({format_.call_open, format_.section_close});
  replay(spill);
  return Outcome::more();
}

Outcome FormatCallParser::finish() {
  switch (phase_) {
    case Phase::kSection:
    case Phase::kHeader:
      return calls_ > 0 ? Outcome::done() : Outcome::failed();
    case Phase::kBody: {
      bool opened = body_->finish().progress == Outcome::Progress::kDone;
      return opened || calls_ > 0 ? Outcome::done() : Outcome::failed();
    }
    case Phase::kClose:
      return Outcome::done();
  }
  return Outcome::failed();
}

}  // namespace ingot::chat::tool_calls
