#pragma once
// The pieces tool-call syntaxes are parsed with. A CallSyntax reads the bytes
// after a call's opening marker, one at a time, and reports calls to a
// CallSink as soon as it is sure of them: a call opens once its name is known
// and its arguments begin, so the arguments can stream.

#include <memory>
#include <string>
#include <string_view>

namespace ingot::chat::tool_calls {

class CallSink {
 public:
  virtual ~CallSink() = default;
  virtual void open_call(std::string name) = 0;
  virtual void append_arguments(std::string_view piece) = 0;
};

struct Outcome {
  enum class Progress {
    kMore,    // the byte belongs to the call; more is needed
    kDone,    // the call syntax ended; `spill` goes back to the content scan
    kFailed,  // the byte cannot continue the syntax
  };
  Progress progress = Progress::kMore;
  std::string spill;

  static Outcome more() { return {}; }
  static Outcome done(std::string spill = {}) { return {Progress::kDone, std::move(spill)}; }
  static Outcome failed() { return {Progress::kFailed, {}}; }
};

class CallSyntax {
 public:
  virtual ~CallSyntax() = default;
  virtual Outcome feed(char c) = 0;
  // The reply ended inside the syntax: kDone keeps what was reported,
  // kFailed (before any call opened) turns the text back into content.
  virtual Outcome finish() = 0;
};

inline bool is_json_space(char c) {
  return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

inline std::string_view trim_json_space(std::string_view text) {
  while (!text.empty() && is_json_space(text.front())) text.remove_prefix(1);
  while (!text.empty() && is_json_space(text.back())) text.remove_suffix(1);
  return text;
}

// A byte of a function name as the syntaxes write it: letters, digits,
// '_', '-' and '.' (namespaced names, Llama's builtin.call).
inline bool is_name_byte(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '-' || c == '.';
}

}  // namespace ingot::chat::tool_calls
