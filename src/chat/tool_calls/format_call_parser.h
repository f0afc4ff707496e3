#pragma once
// Reads any CallFormat (call_format.h) byte by byte after the marker that
// opened it: a section of calls, or one call. Each call's arguments are
// read by a body parser for the format's ArgumentsForm, which opens the
// call as soon as its name is known and its arguments begin, so they can
// stream.

#include <memory>
#include <optional>
#include <string>

#include "chat/tool_calls/argument_typing.h"
#include "chat/tool_calls/call_format.h"
#include "chat/tool_calls/call_syntax.h"
#include "chat/tool_calls/literal_match.h"

namespace ingot::chat::tool_calls {

class FormatCallParser : public CallSyntax {
 public:
  // `in_section`: the marker read was the format's section_open, not its
  // call_open.
  FormatCallParser(const CallFormat& format, bool in_section, CallSink& sink,
                   const ToolSchemas& schemas);
  ~FormatCallParser() override;

  Outcome feed(char c) override;
  Outcome finish() override;

 private:
  enum class Phase { kSection, kHeader, kBody, kClose };

  Outcome step(char c);
  Outcome section_byte(char c);
  Outcome header_byte(char c);
  Outcome body_byte(char c);
  Outcome close_byte(char c);
  void begin_call();
  void begin_piece();
  Outcome end_header();
  std::unique_ptr<CallSyntax> make_body();
  Outcome end_body(std::string spill);
  Outcome end_call(std::string spill);
  void replay(std::string_view bytes);

  const CallFormat& format_;
  bool in_section_;
  CallSink& sink_;
  const ToolSchemas& schemas_;
  Phase phase_;
  size_t piece_ = 0;  // header piece, or call_close marker, being read
  LiteralMatch match_;
  std::optional<TextUntil> until_;
  std::string name_;
  bool name_started_ = false;
  size_t skipped_ = 0;
  std::unique_ptr<CallSyntax> body_;  // the current call's arguments (or calls)
  size_t calls_ = 0;                  // calls ended
  std::string replay_;                // bytes to read again, in order
};

}  // namespace ingot::chat::tool_calls
