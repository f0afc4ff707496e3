#include "tokenizer/tokenizer.h"

#include <optional>

#include "tokenizer/byte_pair_encoder.h"
#include "tokenizer/sentencepiece.h"
#include "tokenizer/special_token_matcher.h"
#include "tokenizer/utf8_repair.h"
#include "tokenizer/wordpiece.h"

namespace ingot::tokenizer {

// Heap-allocated so that the encoders' pointers to the vocabulary survive
// moving the Tokenizer.
struct Tokenizer::State {
  explicit State(Vocab v) : vocab(std::move(v)), matcher(vocab), detokenizer(vocab) {}

  Vocab vocab;
  SpecialTokenMatcher matcher;
  Detokenizer detokenizer;
  std::optional<SentencePieceEncoder> sentencepiece;
  std::optional<BytePairEncoder> byte_pair;
  std::optional<WordPieceEncoder> wordpiece;
};

Tokenizer::Tokenizer(std::unique_ptr<const State> state) : state_(std::move(state)) {}
Tokenizer::Tokenizer(Tokenizer&&) noexcept = default;
Tokenizer& Tokenizer::operator=(Tokenizer&&) noexcept = default;
Tokenizer::~Tokenizer() = default;

Result<Tokenizer> Tokenizer::from_gguf(const gguf::GgufFile& file) {
  auto tokenizer = from_metadata(file.metadata());
  if (!tokenizer.ok())
    tokenizer.error().add_context("while loading the tokenizer of " + file.path());
  return tokenizer;
}

Result<Tokenizer> Tokenizer::from_metadata(const gguf::Metadata& metadata) {
  INGOT_ASSIGN_OR_RETURN(Vocab vocab, Vocab::from_gguf(metadata));
  auto state = std::make_unique<State>(std::move(vocab));
  switch (state->vocab.kind()) {
    case VocabKind::kSentencePiece:
      state->sentencepiece.emplace(state->vocab);
      break;
    case VocabKind::kBytePairEncoding: {
      INGOT_ASSIGN_OR_RETURN(BytePairEncoder encoder, BytePairEncoder::create(state->vocab));
      state->byte_pair.emplace(std::move(encoder));
      break;
    }
    case VocabKind::kWordPiece:
      state->wordpiece.emplace(state->vocab);
      break;
  }
  return Tokenizer(std::move(state));
}

std::vector<int32_t> Tokenizer::encode(std::string_view text, bool add_special,
                                       bool parse_special) const {
  return encode_with(text, add_special, parse_special, {});
}

std::vector<int32_t> Tokenizer::encode(std::string_view text, bool add_special,
                                       std::span<const TextRange> literal) const {
  return encode_with(text, add_special, /*parse_special=*/true, literal);
}

std::vector<TextRange> Tokenizer::control_token_ranges(std::string_view text) const {
  return state_->matcher.control_token_ranges(text);
}

std::vector<int32_t> Tokenizer::encode_with(std::string_view text, bool add_special,
                                            bool parse_special,
                                            std::span<const TextRange> literal) const {
  const State& s = *state_;
  const SpecialIds& special = s.vocab.special_ids();
  std::vector<int32_t> ids;
  if (add_special && s.vocab.add_bos() && special.bos != kNoToken) ids.push_back(special.bos);
  // SentencePiece's dummy prefix goes before text that starts the input or
  // follows a special token.
  bool after_special = true;
  for (const Fragment& fragment : s.matcher.partition(text, parse_special, literal)) {
    if (fragment.token != kNoToken) {
      ids.push_back(fragment.token);
      after_special = true;
      continue;
    }
    if (s.sentencepiece) {
      s.sentencepiece->encode(fragment.text, s.vocab.add_space_prefix() && after_special, ids);
    } else if (s.byte_pair) {
      s.byte_pair->encode(replace_invalid_utf8(fragment.text), ids);
    } else {
      s.wordpiece->encode(fragment.text, ids);
    }
    after_special = false;
  }
  if (add_special && s.vocab.add_eos() && special.eos != kNoToken) ids.push_back(special.eos);
  if (add_special && s.vocab.add_sep() && special.sep != kNoToken) ids.push_back(special.sep);
  return ids;
}

std::string Tokenizer::token_to_piece(int32_t id, bool render_special) const {
  return std::string(state_->detokenizer.piece(id, render_special));
}

std::string Tokenizer::decode(std::span<const int32_t> ids, DecodeOptions options) const {
  Detokenizer::State state = state_->detokenizer.start(options);
  std::string out;
  for (int32_t id : ids) state_->detokenizer.append(id, options, state, out);
  return out;
}

const Vocab& Tokenizer::vocab() const {
  return state_->vocab;
}
const Detokenizer& Tokenizer::detokenizer() const {
  return state_->detokenizer;
}
bool Tokenizer::is_end_of_generation(int32_t id) const {
  return state_->vocab.is_end_of_generation(id);
}

}  // namespace ingot::tokenizer
