#include "tokenizer/sentencepiece.h"

#include <algorithm>
#include <cstdio>

namespace ingot::tokenizer {
namespace {

constexpr std::string_view kVisibleSpace = "\xE2\x96\x81";  // U+2581

// The length llama.cpp gives a character by its first byte alone, so that
// malformed UTF-8 is cut the same way: a stray continuation byte is a
// character of its own, a lead byte takes the bytes it announces.
size_t character_length(uint8_t first_byte) {
  static constexpr uint8_t kByHighNibble[16] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 3, 4};
  return kByHighNibble[first_byte >> 4];
}

// Highest score first; on equal scores the leftmost pair first.
bool lower_priority(float score_a, int32_t left_a, float score_b, int32_t left_b) {
  return score_a < score_b || (score_a == score_b && left_a > left_b);
}

}  // namespace

std::string escape_spaces(std::string_view text) {
  std::string out;
  out.reserve(text.size() + text.size() / 4);
  for (char c : text) {
    if (c == ' ') {
      out += kVisibleSpace;
    } else {
      out += c;
    }
  }
  return out;
}

SentencePieceEncoder::SentencePieceEncoder(const Vocab& vocab) : vocab_(&vocab) {
  for (int byte = 0; byte < 256; ++byte) {
    char name[8];
    std::snprintf(name, sizeof(name), "<0x%02X>", byte);
    int32_t id = vocab.find(name);
    if (id == kNoToken) id = vocab.find(std::string(1, static_cast<char>(byte)));
    if (id == kNoToken) id = vocab.special_ids().unk;
    byte_tokens_[byte] = id;
  }
}

void SentencePieceEncoder::encode(std::string_view fragment, bool space_prefix,
                                  std::vector<int32_t>& out) const {
  std::string text = space_prefix ? std::string(kVisibleSpace) : std::string();
  text += escape_spaces(fragment);
  if (text.empty()) return;
  std::vector<Symbol> symbols;
  symbols.reserve(text.size());
  for (size_t offset = 0; offset < text.size();) {
    size_t length =
        std::min(character_length(static_cast<uint8_t>(text[offset])), text.size() - offset);
    auto index = static_cast<int32_t>(symbols.size());
    symbols.push_back({index - 1, offset + length == text.size() ? -1 : index + 1,
                       static_cast<uint32_t>(offset), static_cast<uint32_t>(length)});
    offset += length;
  }
  merge_symbols(text, symbols);
  for (int32_t i = 0; i != -1; i = symbols[i].next) {
    emit(std::string_view(text).substr(symbols[i].offset, symbols[i].length), out);
  }
}

void SentencePieceEncoder::merge_symbols(std::string_view text,
                                         std::vector<Symbol>& symbols) const {
  auto heap_order = [](const Bigram& a, const Bigram& b) {
    return lower_priority(a.score, a.left, b.score, b.left);
  };
  std::vector<Bigram> heap;
  for (int32_t left = 0; left + 1 < static_cast<int32_t>(symbols.size()); ++left) {
    push_bigram(text, symbols, left, heap);
  }
  std::make_heap(heap.begin(), heap.end(), heap_order);
  while (!heap.empty()) {
    std::pop_heap(heap.begin(), heap.end(), heap_order);
    Bigram bigram = heap.back();
    heap.pop_back();
    Symbol& left = symbols[bigram.left];
    Symbol& right = symbols[bigram.right];
    // Stale: one side has merged since (symbols only grow, so lengths tell).
    if (left.length == 0 || right.length == 0 || left.length + right.length != bigram.length) {
      continue;
    }
    left.length += right.length;
    right.length = 0;
    left.next = right.next;
    if (right.next >= 0) symbols[right.next].prev = bigram.left;
    for (int32_t pair_left : {left.prev, bigram.left}) {
      size_t before = heap.size();
      push_bigram(text, symbols, pair_left, heap);
      if (heap.size() > before) std::push_heap(heap.begin(), heap.end(), heap_order);
    }
  }
}

void SentencePieceEncoder::push_bigram(std::string_view text, const std::vector<Symbol>& symbols,
                                       int32_t left, std::vector<Bigram>& heap) const {
  if (left < 0) return;
  int32_t right = symbols[left].next;
  if (right < 0) return;
  uint32_t length = symbols[left].length + symbols[right].length;
  int32_t token = vocab_->find(text.substr(symbols[left].offset, length));
  if (token == kNoToken) return;
  heap.push_back({left, right, vocab_->score(token), length});
}

void SentencePieceEncoder::emit(std::string_view piece, std::vector<int32_t>& out) const {
  int32_t token = vocab_->find(piece);
  if (token != kNoToken) {
    out.push_back(token);
    return;
  }
  for (char byte : piece) {
    int32_t id = byte_tokens_[static_cast<uint8_t>(byte)];
    if (id != kNoToken) out.push_back(id);
  }
}

}  // namespace ingot::tokenizer
