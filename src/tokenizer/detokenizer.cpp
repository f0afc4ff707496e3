#include "tokenizer/detokenizer.h"

#include "tokenizer/byte_level.h"

namespace ingot::tokenizer {
namespace {

std::string unescape_spaces(std::string_view text) {
  constexpr std::string_view kVisibleSpace = "\xE2\x96\x81";
  std::string out;
  out.reserve(text.size());
  for (size_t pos = 0; pos < text.size();) {
    if (text.substr(pos, kVisibleSpace.size()) == kVisibleSpace) {
      out += ' ';
      pos += kVisibleSpace.size();
    } else {
      out += text[pos++];
    }
  }
  return out;
}

// "<0x0A>" -> '\n'; anything else -> nothing.
std::string byte_token_value(std::string_view text) {
  if (text.size() != 6 || text.substr(0, 3) != "<0x" || text[5] != '>') return {};
  unsigned value = 0;
  for (char c : text.substr(3, 2)) {
    value *= 16;
    if (c >= '0' && c <= '9') {
      value += c - '0';
    } else if (c >= 'A' && c <= 'F') {
      value += c - 'A' + 10;
    } else if (c >= 'a' && c <= 'f') {
      value += c - 'a' + 10;
    } else {
      return {};
    }
  }
  return std::string(1, static_cast<char>(value));
}

std::string normal_piece(VocabKind kind, std::string_view text) {
  return kind == VocabKind::kBytePairEncoding ? byte_level::decode(text) : unescape_spaces(text);
}

std::string piece_of(const Vocab& vocab, int32_t id) {
  std::string_view text = vocab.text(id);
  switch (vocab.type(id)) {
    case TokenType::kNormal:
      return normal_piece(vocab.kind(), text);
    case TokenType::kByte:
      return vocab.kind() == VocabKind::kBytePairEncoding ? normal_piece(vocab.kind(), text)
                                                          : byte_token_value(text);
    case TokenType::kControl:
    case TokenType::kUnknown:
    case TokenType::kUserDefined:
      return std::string(text);  // written as is
    case TokenType::kUnused:
    case TokenType::kUndefined:
      break;
  }
  return {};
}

}  // namespace

Detokenizer::Detokenizer(const Vocab& vocab)
    : vocab_(&vocab),
      space_prefix_(vocab.kind() == VocabKind::kSentencePiece && vocab.add_space_prefix()) {
  pieces_.reserve(vocab.size());
  for (int32_t id = 0; id < vocab.size(); ++id) pieces_.push_back(piece_of(vocab, id));
}

Detokenizer::State Detokenizer::start(const DecodeOptions& options) const {
  return State{space_prefix_ && options.at_text_start};
}

std::string_view Detokenizer::piece(int32_t id, bool render_special) const {
  if (!vocab_->contains(id)) return {};
  TokenType type = vocab_->type(id);
  if (!render_special && (type == TokenType::kControl || type == TokenType::kUnknown)) return {};
  return pieces_[id];
}

void Detokenizer::append(int32_t id, const DecodeOptions& options, State& state,
                         std::string& out) const {
  std::string_view text = piece(id, options.render_special);
  if (vocab_->contains(id) && vocab_->is_special(id)) {
    out += text;
    state.drop_space = space_prefix_;  // encoding puts a space after a special token
    return;
  }
  if (state.drop_space && !text.empty() && text.front() == ' ') text.remove_prefix(1);
  state.drop_space = false;
  out += text;
}

}  // namespace ingot::tokenizer
