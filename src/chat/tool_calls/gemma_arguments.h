#pragma once
// Gemma 4's call arguments, {city:<|"|>Paris<|"|>,days:2,opts:{a:[1]}},
// rewritten as JSON byte by byte as they arrive: bare keys quoted, strings
// delimited by <|"|> quoted and escaped, numbers and true/false/null as
// they are (any other bare word becomes a string).

#include <string>
#include <vector>

namespace ingot::chat::tool_calls {

class GemmaArgumentsTranscoder {
 public:
  enum class Status { kMore, kComplete, kInvalid };

  // `json` gets the JSON text this byte completes (possibly none).
  Status feed(char c, std::string& json);

 private:
  enum class Expect { kOpen, kKeyOrClose, kKey, kColon, kValue, kValueOrClose, kCommaOrClose };

  Status structural(char c, std::string& json);
  Status string_byte(char c, std::string& json);
  Status end_word(std::string& json);
  Status after_value();

  std::vector<char> stack_;  // '{' or '['
  Expect expect_ = Expect::kOpen;
  bool in_string_ = false;
  bool string_is_key_ = false;
  std::string held_;  // a partial <|"|> in or out of a string
  bool in_word_ = false;
  bool word_is_key_ = false;
  std::string word_;
};

}  // namespace ingot::chat::tool_calls
