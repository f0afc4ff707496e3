#pragma once
// The JSON of Anthropic's Messages replies: a whole message, and the named
// events of a streamed one. Pure functions of what the engine produced.
//
// A reply's content is its blocks in order: thinking (the reasoning), text,
// then one tool_use block per call. A stream opens each block
// (content_block_start), fills it (thinking_delta, text_delta,
// input_json_delta) and closes it (content_block_stop) before the next
// opens; message_start comes first and message_delta (stop reason, output
// tokens) and message_stop last.

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "chat/tool_calls/tool_call_types.h"
#include "engine/generation_request.h"
#include "server/stream_event.h"

namespace ingot::server::anthropic {

using ordered_json = nlohmann::ordered_json;

struct MessageIdentity {
  std::string id;  // msg_ and 24 letters and digits
  std::string model;
};

MessageIdentity new_message_identity(std::string model);

// end_turn, max_tokens, stop_sequence or tool_use (a reply that made calls
// and ended by itself).
std::string_view stop_reason(const engine::FinishEvent& finish, size_t calls);

ordered_json usage_json(const engine::Usage& usage);

// {id, type: "message", role, content, model, stop_reason, stop_sequence, usage}
ordered_json whole_message(const MessageIdentity& identity, const std::string& reasoning,
                           const chat::tool_calls::ParsedReply& reply,
                           const engine::FinishEvent& finish);

using StreamEvent = server::StreamEvent;

// Turns a reply's pieces, as they come, into the events of its stream.
class MessageEvents {
 public:
  explicit MessageEvents(MessageIdentity identity) : identity_(std::move(identity)) {}

  // message_start (with the prompt's token counts), then a ping.
  std::vector<StreamEvent> start(const engine::Usage& prompt_usage);
  // A keep-alive while nothing else is said.
  StreamEvent ping() const;
  std::vector<StreamEvent> thinking(std::string_view text);
  std::vector<StreamEvent> text(std::string_view text);
  std::vector<StreamEvent> tool_call(const chat::tool_calls::ToolCallDelta& delta);
  // Closes the open block; message_delta and message_stop.
  std::vector<StreamEvent> finish(const engine::FinishEvent& finish, size_t calls);

 private:
  enum class Block { kNone, kThinking, kText, kToolUse };

  void open(Block kind, ordered_json content_block, std::vector<StreamEvent>& out);
  void close(std::vector<StreamEvent>& out);
  StreamEvent delta(ordered_json delta) const;

  MessageIdentity identity_;
  Block open_ = Block::kNone;
  int64_t index_ = -1;  // of the open (or last) block
  size_t open_call_ = 0;
};

}  // namespace ingot::server::anthropic
