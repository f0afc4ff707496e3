#pragma once
// gpt-oss's replies in its harmony format: a sequence of messages, each a
// header, <|message|>, a body and <|end|>:
//   <|channel|>analysis<|message|>...<|end|>
//   <|start|>assistant<|channel|>final<|message|>...
//   <|start|>assistant<|channel|>commentary to=functions.NAME <|constrain|>json<|message|>{...}
// (the recipient may also stand before the channel). The analysis channel
// is reasoning; final, and commentary without a recipient, are content; a
// message to functions.NAME is a tool call, passed on to the content as
// `to=functions.NAME<|message|>ARGUMENTS`, the form the harmony tool-call
// parser reads. Markers split across tokens are recognised; a reply that
// does not open with a header is content as it is.

#include <string>
#include <string_view>

namespace ingot::engine {

class HarmonyChannels {
 public:
  struct Output {
    std::string reasoning;
    std::string content;
  };

  void push(std::string_view text, Output& out);
  void flush(Output& out);

  // Inside an analysis message's body.
  bool in_reasoning() const { return state_ == State::kBody && route_ == Route::kReasoning; }

 private:
  enum class State { kHeader, kBody, kPlain };
  enum class Route { kReasoning, kContent, kCall };

  void route(Output& out);
  bool read_header(Output& out);
  void read_body(Output& out);
  void start_body(std::string_view header, Output& out);
  void emit(std::string_view text, Output& out) const;

  State state_ = State::kHeader;
  Route route_ = Route::kContent;
  std::string pending_;
};

// The text that ends an analysis message and opens the final one, for
// forcing the end of reasoning.
inline constexpr std::string_view kHarmonyReasoningClose =
    "<|end|><|start|>assistant<|channel|>final<|message|>";

}  // namespace ingot::engine
