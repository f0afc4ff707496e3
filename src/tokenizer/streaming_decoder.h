#pragma once
// Detokenizes a stream of ids one at a time without ever emitting a broken
// character: bytes of an incomplete UTF-8 sequence wait for the next token,
// and flush() emits what is left at the end.
//
// The rule that makes streamed and one-shot output agree: the concatenation
// of every push() and the final flush() equals
// replace_invalid_utf8(tokenizer.decode(ids, options)): byte for byte the
// one-shot decode whenever that is valid UTF-8, and otherwise with each byte
// that cannot begin a well-formed sequence replaced by U+FFFD in both.

#include <cstdint>
#include <string>

#include "tokenizer/tokenizer.h"

namespace ingot::tokenizer {

class StreamingDecoder {
 public:
  // For generated text continuing a prompt, pass options.at_text_start = false.
  // The decoder refers to `tokenizer`, which must outlive it.
  explicit StreamingDecoder(const Tokenizer& tokenizer, DecodeOptions options = {});

  // The text that is complete after this token (often empty or one piece).
  std::string push(int32_t id);
  // Everything still held back; the decoder starts over afterwards.
  std::string flush();

 private:
  const Detokenizer* detokenizer_;
  DecodeOptions options_;
  Detokenizer::State state_;
  std::string pending_;  // bytes of a character not yet complete
};

}  // namespace ingot::tokenizer
