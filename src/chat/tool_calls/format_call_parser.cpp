#include "chat/tool_calls/format_call_parser.h"

#include <cctype>

#include "chat/tool_calls/json_call_parsers.h"
#include "chat/tool_calls/list_call_parsers.h"

namespace ingot::chat::tool_calls {
namespace {

// Past these a name or a skipped id is not one: the text was not a call.
constexpr size_t kMaxName = 256;
constexpr size_t kMaxSkip = 64;

bool is_name_byte(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.';
}

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
  replay_.push_back(c);
  while (!replay_.empty()) {
    char next = replay_.front();
    replay_.erase(0, 1);
    Outcome outcome = step(next);
    if (outcome.progress != Outcome::Progress::kMore) {
      outcome.spill += std::exchange(replay_, std::string());
      return outcome;
    }
  }
  return Outcome::more();
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
  call_open_ = false;
  begin_piece();
  if (format_.header.empty()) end_header();
}

void FormatCallParser::begin_piece() {
  if (piece_ >= format_.header.size()) return;
  const HeaderPiece& piece = format_.header[piece_];
  name_started_ = false;
  skipped_ = 0;
  if (piece.kind == HeaderPiece::Kind::kLiteral) match_ = LiteralMatch({piece.text});
  if (piece.kind == HeaderPiece::Kind::kSkipTo) until_ = std::make_unique<TextUntil>(piece.text);
}

Outcome FormatCallParser::header_byte(char c) {
  if (piece_ >= format_.header.size()) {
    replay_.insert(replay_.begin(), c);
    return end_header();
  }
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
  switch (format_.arguments) {
    case ArgumentsForm::kJsonObject:
      json_ = JsonValueScanner();
      break;
    case ArgumentsForm::kTagged:
      sink_.open_call(name_);
      call_open_ = true;
      tagged_ = std::make_unique<TaggedArgumentsParser>(format_.tagged, name_, schemas_, sink_);
      break;
    case ArgumentsForm::kGemma:
      gemma_ = std::make_unique<GemmaArgumentsTranscoder>();
      break;
    case ArgumentsForm::kJsonCall:
      self_named_ = std::make_unique<ObjectCallParser>(sink_, false);
      break;
    case ArgumentsForm::kJsonCallList:
      self_named_ = std::make_unique<ArrayCallParser>(sink_);
      break;
    case ArgumentsForm::kNameKeyedList:
      self_named_ = std::make_unique<NameKeyedListParser>(sink_);
      break;
    case ArgumentsForm::kPythonCallList:
      self_named_ = std::make_unique<PythonCallListParser>(sink_);
      break;
  }
  return Outcome::more();
}

Outcome FormatCallParser::body_byte(char c) {
  switch (format_.arguments) {
    case ArgumentsForm::kJsonObject: {
      JsonValueScanner::Step step = json_.feed(c);
      if (step.status == JsonValueScanner::Status::kInvalid) return Outcome::failed();
      if (json_.first_byte() != 0 && json_.first_byte() != '{') return Outcome::failed();
      if (!step.significant) return Outcome::more();
      if (!call_open_) {
        sink_.open_call(name_);
        call_open_ = true;
      }
      if (step.consumed) sink_.append_arguments(std::string_view(&c, 1));
      if (step.status != JsonValueScanner::Status::kComplete) return Outcome::more();
      return end_body(step.consumed ? std::string() : std::string(1, c));
    }
    case ArgumentsForm::kTagged: {
      Outcome outcome = tagged_->feed(c);
      if (outcome.progress != Outcome::Progress::kDone) return outcome;
      return end_body(std::move(outcome.spill));
    }
    case ArgumentsForm::kGemma: {
      std::string json;
      GemmaArgumentsTranscoder::Status status = gemma_->feed(c, json);
      if (status == GemmaArgumentsTranscoder::Status::kInvalid) return Outcome::failed();
      if (!json.empty() && !call_open_) {
        sink_.open_call(name_);
        call_open_ = true;
      }
      sink_.append_arguments(json);
      if (status != GemmaArgumentsTranscoder::Status::kComplete) return Outcome::more();
      return end_body({});
    }
    default: {
      Outcome outcome = self_named_->feed(c);
      if (outcome.progress != Outcome::Progress::kDone) return outcome;
      call_open_ = true;
      return end_body(std::move(outcome.spill));
    }
  }
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
  tagged_.reset();
  gemma_.reset();
  self_named_.reset();
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
    case Phase::kBody:
      if (tagged_) tagged_->finish();
      if (self_named_ && self_named_->finish().progress == Outcome::Progress::kDone) {
        call_open_ = true;
      }
      return call_open_ || calls_ > 0 ? Outcome::done() : Outcome::failed();
    case Phase::kClose:
      return Outcome::done();
  }
  return Outcome::failed();
}

}  // namespace ingot::chat::tool_calls
