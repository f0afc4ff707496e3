#pragma once
// Reads any CallFormat (call_format.h) byte by byte after the marker that
// opened it: a section of calls, or one call. The call opens as soon as its
// name is known (for the forms whose body names the call, when the body
// does), so its arguments can stream.

#include <memory>
#include <string>

#include "chat/tool_calls/argument_typing.h"
#include "chat/tool_calls/call_format.h"
#include "chat/tool_calls/call_syntax.h"
#include "chat/tool_calls/gemma_arguments.h"
#include "chat/tool_calls/json_value_scanner.h"
#include "chat/tool_calls/literal_match.h"
#include "chat/tool_calls/tagged_arguments.h"

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
  std::unique_ptr<TextUntil> until_;
  std::string name_;
  bool name_started_ = false;
  size_t skipped_ = 0;
  JsonValueScanner json_;
  std::unique_ptr<TaggedArgumentsParser> tagged_;
  std::unique_ptr<GemmaArgumentsTranscoder> gemma_;
  std::unique_ptr<CallSyntax> self_named_;
  bool call_open_ = false;  // the current call was announced
  size_t calls_ = 0;        // calls ended
  std::string replay_;      // bytes to read again, in order
};

}  // namespace ingot::chat::tool_calls
