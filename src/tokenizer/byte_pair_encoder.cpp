#include "tokenizer/byte_pair_encoder.h"

#include <algorithm>

#include "tokenizer/byte_level.h"
#include "util/utf8.h"

namespace ingot::tokenizer {
namespace {

// Lowest rank first; on equal ranks the leftmost pair first.
bool lower_priority(int32_t rank_a, int32_t left_a, int32_t rank_b, int32_t left_b) {
  return rank_a > rank_b || (rank_a == rank_b && left_a > left_b);
}

}  // namespace

BytePairEncoder::BytePairEncoder(const Vocab& vocab, PreTokenizer pre_tokenizer)
    : vocab_(&vocab), pre_tokenizer_(std::move(pre_tokenizer)) {}

Result<BytePairEncoder> BytePairEncoder::create(const Vocab& vocab) {
  INGOT_ASSIGN_OR_RETURN(PreTokenizer pre, PreTokenizer::create(vocab.pre_tokenizer()));
  BytePairEncoder encoder(vocab, std::move(pre));
  const auto& merges = vocab.merges();
  encoder.merges_ = MergeTable(merges.size());
  std::string joined;
  for (size_t rank = 0; rank < merges.size(); ++rank) {
    const auto& [left, right] = merges[rank];
    joined.assign(left).append(right);
    int32_t left_id = encoder.intern(left);
    int32_t right_id = encoder.intern(right);
    int32_t result = encoder.intern(joined);
    // A repeated pair keeps its first (lowest) rank.
    encoder.merges_.insert(left_id, right_id, {static_cast<int32_t>(rank), result});
  }
  for (int byte = 0; byte < 256; ++byte) {
    encoder.byte_symbols_[byte] = encoder.symbol_id(byte_level::encode_byte(byte));
  }
  return encoder;
}

int32_t BytePairEncoder::symbol_id(std::string_view text) const {
  int32_t id = vocab_->find(text);
  if (id != kNoToken || extra_symbols_.empty()) return id;
  auto it = extra_symbols_.find(std::string(text));
  return it == extra_symbols_.end() ? kNoToken : it->second;
}

int32_t BytePairEncoder::intern(std::string_view text) {
  int32_t id = vocab_->find(text);
  if (id != kNoToken) return id;
  auto next_id = static_cast<int32_t>(vocab_->size() + extra_symbols_.size());
  return extra_symbols_.try_emplace(std::string(text), next_id).first->second;
}

void BytePairEncoder::encode(std::string_view text, std::vector<int32_t>& out) const {
  CallState state;
  for (std::string_view word : pre_tokenizer_.split(text)) {
    auto cached = state.spans.find(word);
    if (cached == state.spans.end()) {
      auto begin = static_cast<uint32_t>(state.ids.size());
      encode_word(word, state);
      auto end = static_cast<uint32_t>(state.ids.size());
      cached = state.spans.emplace(word, std::make_pair(begin, end)).first;
    }
    auto [begin, end] = cached->second;
    out.insert(out.end(), state.ids.begin() + begin, state.ids.begin() + end);
  }
}

// `word` is raw bytes: its symbols are bytes standing for their GPT-2
// stand-ins, so no byte-level text is built unless a lookup needs it.
void BytePairEncoder::encode_word(std::string_view word, CallState& state) const {
  std::vector<int32_t>& out = state.ids;
  if (pre_tokenizer_.ignore_merges()) {
    std::string encoded;
    byte_level::encode(word, encoded);
    int32_t whole = vocab_->find(encoded);
    if (whole != kNoToken) {
      out.push_back(whole);
      return;
    }
  }
  std::vector<Symbol>& symbols = state.symbols;
  symbols.resize(word.size());
  for (size_t i = 0; i < word.size(); ++i) {
    auto index = static_cast<int32_t>(i);
    symbols[i] = {byte_symbols_[static_cast<uint8_t>(word[i])], index - 1,
                  i + 1 == word.size() ? -1 : index + 1, static_cast<uint32_t>(i), 1};
  }
  merge_symbols(symbols, state.heap);
  for (int32_t i = symbols.empty() ? -1 : 0; i != -1; i = symbols[i].next) {
    emit(word, symbols[i], out);
  }
}

void BytePairEncoder::merge_symbols(std::vector<Symbol>& symbols, std::vector<Pair>& heap) const {
  auto heap_order = [](const Pair& a, const Pair& b) {
    return lower_priority(a.rank, a.left, b.rank, b.left);
  };
  heap.clear();
  for (int32_t left = 0; left + 1 < static_cast<int32_t>(symbols.size()); ++left) {
    push_pair(symbols, left, heap);
  }
  std::make_heap(heap.begin(), heap.end(), heap_order);
  while (!heap.empty()) {
    std::pop_heap(heap.begin(), heap.end(), heap_order);
    Pair pair = heap.back();
    heap.pop_back();
    Symbol& left = symbols[pair.left];
    Symbol& right = symbols[pair.right];
    // Stale: one side has merged since (symbols only grow, so lengths tell).
    if (left.length == 0 || right.length == 0 || left.length + right.length != pair.length) {
      continue;
    }
    left.id = pair.result;
    left.length += right.length;
    right.length = 0;
    left.next = right.next;
    if (right.next >= 0) symbols[right.next].prev = pair.left;
    for (int32_t pair_left : {left.prev, pair.left}) {
      size_t before = heap.size();
      push_pair(symbols, pair_left, heap);
      if (heap.size() > before) std::push_heap(heap.begin(), heap.end(), heap_order);
    }
  }
}

void BytePairEncoder::push_pair(const std::vector<Symbol>& symbols, int32_t left,
                                std::vector<Pair>& heap) const {
  if (left < 0) return;
  int32_t right = symbols[left].next;
  if (right < 0) return;
  if (symbols[left].id == kNoToken || symbols[right].id == kNoToken) return;
  const MergeTable::Merge* merge = merges_.find(symbols[left].id, symbols[right].id);
  if (merge == nullptr) return;
  heap.push_back(
      {merge->rank, left, right, symbols[left].length + symbols[right].length, merge->result});
}

// A symbol that is no token (a merge result missing from the vocabulary, or a
// character no merge mentions) falls back to whichever of its single bytes
// are tokens, as llama.cpp does.
void BytePairEncoder::emit(std::string_view word, const Symbol& symbol,
                           std::vector<int32_t>& out) const {
  if (vocab_->contains(symbol.id)) {
    out.push_back(symbol.id);
    return;
  }
  std::string encoded;
  byte_level::encode(word.substr(symbol.offset, symbol.length), encoded);
  for (char byte : encoded) {
    int32_t id = vocab_->find(std::string_view(&byte, 1));
    if (id != kNoToken) out.push_back(id);
  }
}

}  // namespace ingot::tokenizer
