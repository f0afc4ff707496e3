#pragma once
// Finds tool calls in a reply as it is generated, piece by piece. Text that
// might still become a call (a partial "<tool_" at the end of a piece, a
// call whose name is not complete) is held back until it is decided, so
// content that turns out to be a call is never sent. A call is announced
// (id and name) once its name is known and its arguments begin; the
// arguments then stream, compacted (whitespace outside strings dropped).
//
// Text that opens like a call but is malformed before the call is announced
// stays content. Once announced, a call stands: arguments cut short (by
// max_tokens) or broken off stay as written, and the text after the break
// is content again.
//
// Content is the text outside calls, without the whitespace at its ends or
// beside a call.

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "chat/tool_calls/argument_typing.h"
#include "chat/tool_calls/call_syntax.h"
#include "chat/tool_calls/tool_call_family.h"
#include "chat/tool_calls/tool_call_id.h"
#include "chat/tool_calls/tool_call_types.h"

namespace ingot::chat::tool_calls {

class ToolCallStreamParser : private CallSink {
 public:
  // `schemas` types the arguments of the syntaxes that write them as text.
  ToolCallStreamParser(ToolCallFamily family, ToolCallIdGenerator ids,
                       ToolSchemas schemas = ToolSchemas());
  ~ToolCallStreamParser() override;

  ReplyDelta push(std::string_view text);
  // The reply ended: decides what was held back. Call once, after the last push.
  ReplyDelta finish();

  size_t call_count() const { return calls_; }

 private:
  void open_call(std::string name) override;
  void append_arguments(std::string_view piece) override;

  CallSink& sink() { return *this; }
  void drain();
  void scan_content(char c);
  void feed_call(char c);
  void start_call(std::string opening, std::unique_ptr<CallSyntax> syntax);
  void end_call(const std::string& spill);
  void reject_call();
  void emit_content(std::string_view text);
  bool bare_object_may_start() const;
  std::unique_ptr<CallSyntax> syntax_after(std::string_view marker);

  ToolCallFamily family_;
  ToolCallIdGenerator ids_;
  ToolSchemas schemas_;
  std::vector<std::string_view> markers_;
  ReplyDelta out_;
  std::string queue_;  // bytes to scan; rejected calls put theirs back here
  size_t queue_pos_ = 0;
  std::string held_space_;
  std::string held_marker_;  // a proper prefix of a marker
  bool segment_has_content_ = false;
  std::unique_ptr<CallSyntax> call_;
  std::string call_text_;  // the text since the call's marker, until it is announced
  bool call_announced_ = false;
  size_t calls_ = 0;
};

// The whole reply at once: the same as pushing it in one piece and finishing.
ParsedReply parse_tool_calls(std::string_view reply, ToolCallFamily family, ToolCallIdGenerator ids,
                             ToolSchemas schemas = ToolSchemas());

}  // namespace ingot::chat::tool_calls
