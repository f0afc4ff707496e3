#pragma once
// A vocabulary as a GGUF file describes it: token texts, scores, types,
// merges, the special ids and the flags that say how a prompt is framed.
// Owns its text, so it outlives the file it was read from.

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "gguf/metadata.h"
#include "tokenizer/token_type.h"
#include "util/status.h"

namespace ingot::tokenizer {

// Special token ids; kNoToken where the vocabulary has none.
struct SpecialIds {
  int32_t bos = kNoToken;
  int32_t eos = kNoToken;
  int32_t eot = kNoToken;  // end of turn, e.g. <|eot_id|>, <|im_end|>
  int32_t eom = kNoToken;  // end of message (tool call pending), <|eom_id|>
  int32_t unk = kNoToken;
  int32_t sep = kNoToken;
  int32_t pad = kNoToken;
  int32_t cls = kNoToken;
  int32_t mask = kNoToken;
  int32_t fim_pre = kNoToken;
  int32_t fim_suf = kNoToken;
  int32_t fim_mid = kNoToken;
  int32_t fim_pad = kNoToken;
  int32_t fim_rep = kNoToken;
  int32_t fim_sep = kNoToken;
};

class Vocab {
 public:
  static Result<Vocab> from_gguf(const gguf::Metadata& metadata);

  Vocab(Vocab&&) = default;
  Vocab& operator=(Vocab&&) = default;
  Vocab(const Vocab&) = delete;
  Vocab& operator=(const Vocab&) = delete;

  VocabKind kind() const { return kind_; }
  // `tokenizer.ggml.pre`, or "default" when the file has none.
  const std::string& pre_tokenizer() const { return pre_tokenizer_; }

  int32_t size() const { return static_cast<int32_t>(tokens_.size()); }
  bool contains(int32_t id) const { return id >= 0 && id < size(); }
  std::string_view text(int32_t id) const { return tokens_[id].text; }
  float score(int32_t id) const { return tokens_[id].score; }
  TokenType type(int32_t id) const { return tokens_[id].type; }
  // Control, user-defined and unknown tokens: those matched verbatim in text.
  bool is_special(int32_t id) const;
  // Whether whitespace beside this token in text is swallowed with it.
  bool strips_left(int32_t id) const { return tokens_[id].strip_left; }
  bool strips_right(int32_t id) const { return tokens_[id].strip_right; }
  // The id of a token text, or kNoToken. Duplicate texts resolve to the last id.
  int32_t find(std::string_view text) const;
  size_t max_token_length() const { return max_token_length_; }

  // BPE merges in rank order (rank = index), each split into its two sides.
  const std::vector<std::pair<std::string_view, std::string_view>>& merges() const {
    return merges_;
  }

  const SpecialIds& special_ids() const { return special_; }
  bool add_bos() const { return add_bos_; }
  bool add_eos() const { return add_eos_; }
  // BERT's [SEP] after a text (and after it the EOS, when both are asked).
  bool add_sep() const { return add_sep_; }
  bool add_space_prefix() const { return add_space_prefix_; }
  // The tokens a generation stops on: eos, eot, eom and the end-of-turn
  // tokens of known chat formats. Sorted ascending.
  const std::vector<int32_t>& end_of_generation() const { return end_of_generation_; }
  bool is_end_of_generation(int32_t id) const;

 private:
  struct Token {
    std::string_view text;  // into arena_
    float score = 0.0f;
    TokenType type = TokenType::kNormal;
    bool strip_left = false;
    bool strip_right = false;
  };

  Vocab() = default;
  Status read_tokens(const gguf::Metadata& metadata);
  void store_texts(const std::vector<std::string_view>& texts);
  Status read_merges(const gguf::Metadata& metadata);
  void read_flags(const gguf::Metadata& metadata);
  // vocab_special_tokens.cpp
  void read_special_ids(const gguf::Metadata& metadata);
  void detect_special_ids_by_text();
  void collect_end_of_generation();
  void drop_end_of_generation_that_is_text();
  void apply_model_strip_rules(const gguf::Metadata& metadata);
  void mark_control(int32_t id);

  VocabKind kind_ = VocabKind::kSentencePiece;
  std::string pre_tokenizer_;
  // Every token text (and every merge text), back to back; views point
  // here. A vector's buffer survives moves, so views stay valid when a Vocab moves.
  std::vector<char> arena_;
  std::vector<char> merge_arena_;
  std::vector<Token> tokens_;
  std::unordered_map<std::string_view, int32_t> ids_by_text_;
  std::vector<std::pair<std::string_view, std::string_view>> merges_;
  size_t max_token_length_ = 0;
  SpecialIds special_;
  bool add_bos_ = false;
  bool add_eos_ = false;
  bool add_sep_ = false;
  bool add_space_prefix_ = false;
  std::vector<int32_t> end_of_generation_;
};

}  // namespace ingot::tokenizer
