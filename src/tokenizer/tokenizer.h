#pragma once
// The tokenizer of a GGUF model: text to ids and back, with llama.cpp's
// exact token ids as the bar. Thread-safe: every method is const and keeps
// no state between calls.

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "gguf/metadata.h"
#include "gguf/reader.h"
#include "tokenizer/detokenizer.h"
#include "tokenizer/special_token_matcher.h"
#include "tokenizer/vocab.h"
#include "util/status.h"

namespace ingot::tokenizer {

class Tokenizer {
 public:
  static Result<Tokenizer> from_gguf(const gguf::GgufFile& file);
  static Result<Tokenizer> from_metadata(const gguf::Metadata& metadata);

  Tokenizer(Tokenizer&&) noexcept;
  Tokenizer& operator=(Tokenizer&&) noexcept;
  ~Tokenizer();

  // add_special: BOS/EOS as the vocabulary asks (add_bos/add_eos).
  // parse_special: control tokens written in the text become their ids;
  // without it they are plain text. User-defined tokens (e.g. Qwen's
  // <think>) are matched either way, as in llama.cpp and Hugging Face.
  std::vector<int32_t> encode(std::string_view text, bool add_special, bool parse_special) const;
  // As encode with parse_special, but a control token written inside one
  // of the `literal` ranges (sorted, disjoint) is plain text: text a user
  // typed, inside a prompt whose own markers are parsed.
  std::vector<int32_t> encode(std::string_view text, bool add_special,
                              std::span<const TextRange> literal) const;
  // Where control tokens are written in `text` (with the whitespace a
  // token strips), in order.
  std::vector<TextRange> control_token_ranges(std::string_view text) const;

  // The bytes of one token (not necessarily valid UTF-8 on its own).
  std::string token_to_piece(int32_t id, bool render_special = true) const;
  // The bytes of a sequence; may be invalid UTF-8 when the ids split a
  // character. StreamingDecoder gives the same text, always valid.
  std::string decode(std::span<const int32_t> ids, DecodeOptions options = {}) const;

  const Vocab& vocab() const;
  const Detokenizer& detokenizer() const;
  bool is_end_of_generation(int32_t id) const;

 private:
  struct State;
  std::vector<int32_t> encode_with(std::string_view text, bool add_special, bool parse_special,
                                   std::span<const TextRange> literal) const;
  explicit Tokenizer(std::unique_ptr<const State> state);
  std::unique_ptr<const State> state_;
};

}  // namespace ingot::tokenizer
