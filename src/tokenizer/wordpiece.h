#pragma once
// WordPiece (BERT): each normalized word is covered greedily by the longest
// vocabulary tokens from its start. GGUF stores word-initial pieces with a
// leading U+2581 and continuation pieces bare (the "##" dropped), so the
// word is looked up with '▁' in front. A word that cannot be covered
// becomes the unknown token.

#include <cstdint>
#include <string_view>
#include <vector>

#include "tokenizer/vocab.h"

namespace ingot::tokenizer {

class WordPieceEncoder {
 public:
  explicit WordPieceEncoder(const Vocab& vocab) : vocab_(&vocab) {}

  void encode(std::string_view text, std::vector<int32_t>& out) const;

 private:
  void encode_word(std::string_view word, std::vector<int32_t>& out) const;

  const Vocab* vocab_;
};

}  // namespace ingot::tokenizer
