#pragma once
// SentencePiece BPE as llama.cpp runs it: start from UTF-8 characters and
// repeatedly merge the adjacent pair whose joined text is the vocabulary
// token with the highest score (leftmost first on ties); characters that end
// up in no token fall back to byte tokens <0xXX>.

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "tokenizer/vocab.h"

namespace ingot::tokenizer {

class SentencePieceEncoder {
 public:
  explicit SentencePieceEncoder(const Vocab& vocab);

  // Encodes one plain-text fragment. `space_prefix` puts a space before it
  // (SentencePiece's dummy prefix); spaces become U+2581 '▁' before merging.
  void encode(std::string_view text, bool space_prefix, std::vector<int32_t>& out) const;

 private:
  struct Symbol {
    int32_t prev;
    int32_t next;
    uint32_t offset;
    uint32_t length;  // 0 once merged into its left neighbour
  };
  struct Bigram {
    int32_t left;
    int32_t right;
    float score;
    uint32_t length;
  };

  void merge_symbols(std::string_view text, std::vector<Symbol>& symbols) const;
  void push_bigram(std::string_view text, const std::vector<Symbol>& symbols, int32_t left,
                   std::vector<Bigram>& heap) const;
  void emit(std::string_view piece, std::vector<int32_t>& out) const;

  const Vocab* vocab_;
  std::array<int32_t, 256> byte_tokens_;
};

// Replaces every space with U+2581 ('▁'), SentencePiece's visible space.
std::string escape_spaces(std::string_view text);

}  // namespace ingot::tokenizer
