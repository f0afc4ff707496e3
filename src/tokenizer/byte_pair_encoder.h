#pragma once
// Byte-level BPE (GPT-2 family): the pre-tokenizer cuts text into words,
// each word's bytes become GPT-2's printable stand-ins, and adjacent symbols
// merge by merge rank, lowest first (leftmost on ties). A priority queue
// with lazy invalidation keeps a word at O(n log n); pair lookups go through
// a hash keyed on the two symbol ids, never on strings.

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "tokenizer/merge_table.h"
#include "tokenizer/pre_tokenizer.h"
#include "tokenizer/vocab.h"
#include "util/status.h"

namespace ingot::tokenizer {

class BytePairEncoder {
 public:
  static Result<BytePairEncoder> create(const Vocab& vocab);

  // Encodes one plain-text fragment (valid UTF-8).
  void encode(std::string_view text, std::vector<int32_t>& out) const;

  const PreTokenizer& pre_tokenizer() const { return pre_tokenizer_; }

 private:
  // A run of the word's raw bytes; one byte to begin with.
  struct Symbol {
    int32_t id;  // symbol id, or kNoToken for a byte no merge or token mentions
    int32_t prev;
    int32_t next;
    uint32_t offset;
    uint32_t length;  // 0 once merged into its left neighbour
  };
  struct Pair {
    int32_t rank;
    int32_t left;
    int32_t right;
    uint32_t length;
    int32_t result;
  };
  // Per-call state: words already encoded (word -> [begin, end) in `ids`)
  // and buffers reused from word to word.
  struct CallState {
    std::unordered_map<std::string_view, std::pair<uint32_t, uint32_t>> spans;
    std::vector<int32_t> ids;
    std::vector<Symbol> symbols;
    std::vector<Pair> heap;
  };

  BytePairEncoder(const Vocab& vocab, PreTokenizer pre_tokenizer);
  int32_t symbol_id(std::string_view text) const;
  int32_t intern(std::string_view text);
  void encode_word(std::string_view word, CallState& state) const;
  void merge_symbols(std::vector<Symbol>& symbols, std::vector<Pair>& heap) const;
  void push_pair(const std::vector<Symbol>& symbols, int32_t left, std::vector<Pair>& heap) const;
  void emit(std::string_view word, const Symbol& symbol, std::vector<int32_t>& out) const;

  const Vocab* vocab_;
  PreTokenizer pre_tokenizer_;
  MergeTable merges_;
  // The symbol id of each byte's GPT-2 stand-in: a word's starting symbols.
  std::array<int32_t, 256> byte_symbols_;
  // Texts that appear in merges but are not tokens get ids from vocab size up.
  std::unordered_map<std::string, int32_t> extra_symbols_;
};

}  // namespace ingot::tokenizer
