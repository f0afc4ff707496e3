#pragma once
// Follows one JSON value byte by byte, as a model writes it: where the value
// ends, whether it is still well-formed, and which bytes are whitespace that
// a compact rendering drops. Tool-call parsers use it to stream arguments
// before the value is complete.

#include <cstdint>
#include <string>
#include <vector>

namespace ingot::chat::tool_calls {

class JsonValueScanner {
 public:
  enum class Status {
    kIncomplete,  // the byte belongs to the value; more is needed
    kComplete,    // the value ended; see Step::consumed
    kInvalid,     // the byte cannot continue a JSON value
  };

  struct Step {
    Status status = Status::kIncomplete;
    // False when a number or literal ended on a byte that is not part of it
    // (the caller handles that byte itself).
    bool consumed = true;
    // False for whitespace outside strings: a compact rendering skips it.
    bool significant = true;
  };

  // Feeds the next byte. Feeding after kComplete or kInvalid is a bug.
  Step feed(char c);

  // At the end of the text: a number or literal at the top level ends here.
  Status finish();

  // The first significant byte of the value ('{', '[', '"', a digit...), or
  // 0 before it arrived.
  char first_byte() const { return first_; }

 private:
  enum class Expect : uint8_t {
    kValue,         // a value must come (start, after ':' or ',' in an array)
    kValueOrClose,  // just after '['
    kKeyOrClose,    // just after '{'
    kKey,           // after ',' in an object
    kColon,         // after a key
    kCommaOrClose,  // after a value inside a container
  };

  Step start_value(char c);
  Step after_value();
  Step in_string(char c);
  Step in_token(char c);
  Step close(char c);
  bool token_is_valid() const;

  std::vector<char> stack_;  // '{' or '[' per open container
  Expect expect_ = Expect::kValue;
  bool in_string_ = false;
  bool string_is_key_ = false;
  bool escape_ = false;
  int unicode_digits_ = 0;  // hex digits still expected after \u
  bool in_token_ = false;
  std::string token_;
  char first_ = 0;
  bool done_ = false;
};

}  // namespace ingot::chat::tool_calls
