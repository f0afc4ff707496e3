#pragma once
// Token ids back to bytes. SentencePiece pieces turn '▁' into spaces and
// byte tokens <0xXX> into their byte; byte-level BPE pieces map GPT-2's
// stand-ins back to bytes; control tokens are written only on request.
//
// The space rule: SentencePiece vocabularies with add_space_prefix put a
// space in front of text that starts a sequence or follows a special token.
// Decoding from the start of a sequence removes exactly that one space
// again, so decode(encode(text)) gives the text back.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "tokenizer/vocab.h"

namespace ingot::tokenizer {

struct DecodeOptions {
  // Write the text of control and unknown tokens (e.g. "<|im_end|>").
  bool render_special = false;
  // The ids begin a sequence, so the space prefix encoding added is dropped.
  // A stream continuing a prompt (generated tokens) sets this to false.
  bool at_text_start = true;
};

class Detokenizer {
 public:
  explicit Detokenizer(const Vocab& vocab);

  // What carries from one token to the next while decoding a sequence.
  struct State {
    bool drop_space = false;
  };
  State start(const DecodeOptions& options) const;

  // The bytes of one token, with no space rule applied. Out-of-range ids
  // give nothing.
  std::string_view piece(int32_t id, bool render_special) const;

  // Appends the bytes of `id` to `out` under `options`, updating `state`.
  void append(int32_t id, const DecodeOptions& options, State& state, std::string& out) const;

 private:
  const Vocab* vocab_;
  std::vector<std::string> pieces_;  // with control tokens written
  bool space_prefix_ = false;
};

}  // namespace ingot::tokenizer
