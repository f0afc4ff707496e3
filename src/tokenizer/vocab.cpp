#include "tokenizer/vocab.h"

#include <algorithm>
#include <string>

namespace ingot::tokenizer {
namespace {

constexpr std::string_view kTokensKey = "tokenizer.ggml.tokens";
constexpr std::string_view kScoresKey = "tokenizer.ggml.scores";
constexpr std::string_view kTypesKey = "tokenizer.ggml.token_type";
constexpr std::string_view kMergesKey = "tokenizer.ggml.merges";

Result<VocabKind> kind_from_model_name(std::string_view model) {
  if (model == "llama") return VocabKind::kSentencePiece;
  if (model == "gpt2") return VocabKind::kBytePairEncoding;
  if (model == "bert") return VocabKind::kWordPiece;
  return unsupported("tokenizer.ggml.model '" + std::string(model) +
                     "' is not supported (supported: llama, gpt2, bert)");
}

TokenType token_type_from_gguf(int32_t value) {
  if (value < 0 || value > static_cast<int32_t>(TokenType::kByte)) return TokenType::kUndefined;
  return static_cast<TokenType>(value);
}

// Splits a merge "left right" at the first space after the first character,
// so that a left side which is itself a space stays whole.
bool split_merge(std::string_view merge, std::string_view& left, std::string_view& right) {
  size_t space = merge.find(' ', 1);
  if (space == std::string_view::npos) return false;
  left = merge.substr(0, space);
  right = merge.substr(space + 1);
  return true;
}

// Pre-tokenizers whose models expect a BOS token unless the file says otherwise.
bool pre_tokenizer_adds_bos(std::string_view pre) {
  return pre == "llama3" || pre == "llama-v3" || pre == "llama-bpe" || pre == "falcon3" ||
         pre == "pixtral" || pre == "tekken";
}

// An optional per-token array (scores, types): empty when absent, an error
// when its length disagrees with the token count.
template <typename T>
Result<std::vector<T>> per_token_values(const gguf::Metadata& metadata, std::string_view key,
                                        size_t token_count) {
  if (!metadata.has(key)) return std::vector<T>();
  INGOT_ASSIGN_OR_RETURN(auto values, metadata.get<std::vector<T>>(key));
  if (values.size() != token_count) {
    return invalid_format(std::string(key) + " has " + std::to_string(values.size()) +
                          " entries for " + std::to_string(token_count) + " tokens");
  }
  return values;
}

}  // namespace

Result<Vocab> Vocab::from_gguf(const gguf::Metadata& metadata) {
  Vocab vocab;
  INGOT_ASSIGN_OR_RETURN(std::string_view model,
                         metadata.get<std::string_view>("tokenizer.ggml.model"));
  INGOT_ASSIGN_OR_RETURN(vocab.kind_, kind_from_model_name(model));
  vocab.pre_tokenizer_ = metadata.get_or<std::string>("tokenizer.ggml.pre", "default");
  INGOT_RETURN_IF_ERROR(vocab.read_tokens(metadata));
  if (vocab.kind_ == VocabKind::kBytePairEncoding) {
    INGOT_RETURN_IF_ERROR(vocab.read_merges(metadata));
  }
  vocab.read_flags(metadata);
  vocab.read_special_ids(metadata);
  vocab.detect_special_ids_by_text();
  vocab.collect_end_of_generation();
  vocab.apply_model_strip_rules(metadata);
  return vocab;
}

Status Vocab::read_tokens(const gguf::Metadata& metadata) {
  INGOT_ASSIGN_OR_RETURN(auto texts, metadata.get<std::vector<std::string_view>>(kTokensKey));
  if (texts.empty()) return invalid_format("tokenizer.ggml.tokens is empty");
  INGOT_ASSIGN_OR_RETURN(auto scores, per_token_values<float>(metadata, kScoresKey, texts.size()));
  INGOT_ASSIGN_OR_RETURN(auto types, per_token_values<int32_t>(metadata, kTypesKey, texts.size()));
  store_texts(texts);
  ids_by_text_.reserve(texts.size());
  for (size_t id = 0; id < texts.size(); ++id) {
    Token& token = tokens_[id];
    if (!scores.empty()) token.score = scores[id];
    if (!types.empty()) token.type = token_type_from_gguf(types[id]);
    ids_by_text_[token.text] = static_cast<int32_t>(id);
    max_token_length_ = std::max(max_token_length_, token.text.size());
  }
  return {};
}

// Copies every token text into one arena; an empty text is named
// "[EMPTY_<id>]" so that it can neither match nor vanish.
void Vocab::store_texts(const std::vector<std::string_view>& texts) {
  std::vector<std::string> names(texts.size());
  size_t bytes = 0;
  for (size_t id = 0; id < texts.size(); ++id) {
    if (texts[id].empty()) names[id] = "[EMPTY_" + std::to_string(id) + "]";
    bytes += texts[id].empty() ? names[id].size() : texts[id].size();
  }
  arena_.reserve(bytes);  // no reallocation below: views stay valid
  tokens_.resize(texts.size());
  for (size_t id = 0; id < texts.size(); ++id) {
    std::string_view text = texts[id].empty() ? std::string_view(names[id]) : texts[id];
    size_t begin = arena_.size();
    arena_.insert(arena_.end(), text.begin(), text.end());
    tokens_[id].text = std::string_view(arena_.data() + begin, text.size());
  }
}

Status Vocab::read_merges(const gguf::Metadata& metadata) {
  if (!metadata.has(kMergesKey)) {
    return invalid_format("a gpt2 vocabulary needs tokenizer.ggml.merges, which is absent");
  }
  INGOT_ASSIGN_OR_RETURN(auto merges, metadata.get<std::vector<std::string_view>>(kMergesKey));
  size_t merge_bytes = 0;
  for (std::string_view merge : merges) merge_bytes += merge.size();
  merge_arena_.reserve(merge_bytes);  // no reallocation below: views stay valid
  merges_.reserve(merges.size());
  for (size_t rank = 0; rank < merges.size(); ++rank) {
    size_t begin = merge_arena_.size();
    merge_arena_.insert(merge_arena_.end(), merges[rank].begin(), merges[rank].end());
    std::string_view left, right;
    if (!split_merge(std::string_view(merge_arena_.data() + begin, merges[rank].size()), left,
                     right)) {
      return invalid_format("tokenizer.ggml.merges[" + std::to_string(rank) +
                            "] has no space between its two sides");
    }
    merges_.emplace_back(left, right);
  }
  return {};
}

void Vocab::read_flags(const gguf::Metadata& metadata) {
  switch (kind_) {
    case VocabKind::kSentencePiece:
      add_bos_ = true;
      add_space_prefix_ = true;
      break;
    case VocabKind::kBytePairEncoding:
      add_bos_ = pre_tokenizer_adds_bos(pre_tokenizer_);
      break;
    case VocabKind::kWordPiece:
      add_bos_ = true;  // [CLS] ... [SEP]
      add_sep_ = true;
      break;
  }
  add_bos_ = metadata.get_or<bool>("tokenizer.ggml.add_bos_token", add_bos_);
  add_eos_ = metadata.get_or<bool>("tokenizer.ggml.add_eos_token", add_eos_);
  add_sep_ = metadata.get_or<bool>("tokenizer.ggml.add_sep_token", add_sep_);
  add_space_prefix_ = metadata.get_or<bool>("tokenizer.ggml.add_space_prefix", add_space_prefix_);
}

bool Vocab::is_special(int32_t id) const {
  TokenType type = tokens_[id].type;
  return type == TokenType::kControl || type == TokenType::kUserDefined ||
         type == TokenType::kUnknown;
}

int32_t Vocab::find(std::string_view text) const {
  auto it = ids_by_text_.find(text);
  return it == ids_by_text_.end() ? kNoToken : it->second;
}

bool Vocab::is_end_of_generation(int32_t id) const {
  return std::binary_search(end_of_generation_.begin(), end_of_generation_.end(), id);
}

}  // namespace ingot::tokenizer
