#pragma once
// Matches one of a few literals (a syntax's next marker) byte by byte,
// after any whitespace; keeps what it consumed, so that a mismatch can give
// the bytes back to whoever reads them next.

#include <string>
#include <string_view>
#include <vector>

#include "chat/tool_calls/call_syntax.h"

namespace ingot::chat::tool_calls {

class LiteralMatch {
 public:
  enum class State { kPending, kMatched, kMismatch };

  LiteralMatch() = default;
  // Empty alternatives are ignored; with none left, the first byte that is
  // not whitespace mismatches.
  explicit LiteralMatch(std::vector<std::string_view> alternatives);

  State feed(char c);
  // The alternative matched (an index into the constructor's list).
  size_t matched() const { return matched_; }
  // Every byte fed, whitespace included.
  const std::string& consumed() const { return consumed_; }

 private:
  std::vector<std::string_view> alternatives_;
  std::string consumed_;
  std::string text_;  // the bytes after the whitespace
  size_t matched_ = 0;
};

// Collects text up to a closing literal, holding back a partial match of it
// at the end (so that streamed text never includes part of the close).
class TextUntil {
 public:
  explicit TextUntil(std::string_view close) : close_(close) {}

  // True once the close has been read; `released` gets the text known not
  // to be part of it.
  bool feed(char c, std::string& released);

 private:
  std::string_view close_;
  std::string held_;
};

}  // namespace ingot::chat::tool_calls
