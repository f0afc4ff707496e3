// The special ids of a vocabulary: defaults per kind, the ids the file
// names, the ones recognised by their text when the file is silent, and the
// set of tokens a generation stops on.

#include <spdlog/spdlog.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <string>
#include <vector>

#include "tokenizer/vocab.h"

namespace ingot::tokenizer {
namespace {

struct SpecialIdKey {
  std::string_view key;
  int32_t SpecialIds::*field;
};

// Later keys win, so the FIM names of newer files override the legacy ones.
constexpr std::array kSpecialIdKeys = {
    SpecialIdKey{"tokenizer.ggml.bos_token_id", &SpecialIds::bos},
    SpecialIdKey{"tokenizer.ggml.eos_token_id", &SpecialIds::eos},
    SpecialIdKey{"tokenizer.ggml.eot_token_id", &SpecialIds::eot},
    SpecialIdKey{"tokenizer.ggml.eom_token_id", &SpecialIds::eom},
    SpecialIdKey{"tokenizer.ggml.unknown_token_id", &SpecialIds::unk},
    SpecialIdKey{"tokenizer.ggml.seperator_token_id",
                 &SpecialIds::sep},  // sic, as written by GGUF tools
    SpecialIdKey{"tokenizer.ggml.padding_token_id", &SpecialIds::pad},
    SpecialIdKey{"tokenizer.ggml.cls_token_id", &SpecialIds::cls},
    SpecialIdKey{"tokenizer.ggml.mask_token_id", &SpecialIds::mask},
    SpecialIdKey{"tokenizer.ggml.prefix_token_id", &SpecialIds::fim_pre},
    SpecialIdKey{"tokenizer.ggml.suffix_token_id", &SpecialIds::fim_suf},
    SpecialIdKey{"tokenizer.ggml.middle_token_id", &SpecialIds::fim_mid},
    SpecialIdKey{"tokenizer.ggml.fim_pre_token_id", &SpecialIds::fim_pre},
    SpecialIdKey{"tokenizer.ggml.fim_suf_token_id", &SpecialIds::fim_suf},
    SpecialIdKey{"tokenizer.ggml.fim_mid_token_id", &SpecialIds::fim_mid},
    SpecialIdKey{"tokenizer.ggml.fim_pad_token_id", &SpecialIds::fim_pad},
    SpecialIdKey{"tokenizer.ggml.fim_rep_token_id", &SpecialIds::fim_rep},
    SpecialIdKey{"tokenizer.ggml.fim_sep_token_id", &SpecialIds::fim_sep},
};

SpecialIds default_special_ids(VocabKind kind) {
  SpecialIds ids;
  switch (kind) {
    case VocabKind::kSentencePiece:
      ids.bos = 1;
      ids.eos = 2;
      ids.unk = 0;
      break;
    case VocabKind::kBytePairEncoding:
      break;  // no conventional ids: only what the file names
    case VocabKind::kWordPiece:
      ids.pad = 0;
      ids.unk = 100;
      ids.cls = 101;
      ids.sep = 102;
      ids.mask = 103;
      break;
  }
  return ids;
}

// Token texts that name a special role in the chat formats ingot knows, for
// files that do not name the id. The first text present in the vocabulary wins.
struct TextRule {
  int32_t SpecialIds::*field;
  std::vector<std::string_view> texts;
};

const std::array<TextRule, 8>& text_rules() {
  static const std::array<TextRule, 8> rules = {{
      {&SpecialIds::eot,
       {"<|eot_id|>", "<|im_end|>", "<|end|>", "<end_of_turn>", "<|endoftext|>", "<|end_of_text|>",
        "<EOT>", "_<EOT>", "[EOT]",
        "<\xEF\xBD\x9C"
        "end\xE2\x96\x81of\xE2\x96\x81sentence\xEF\xBD\x9C>",
        "<end_of_utterance>"}},
      {&SpecialIds::eom, {"<|eom_id|>"}},
      {&SpecialIds::fim_pre,
       {"<|fim_prefix|>", "<fim-prefix>", "<fim_prefix>",
        "<\xEF\xBD\x9C"
        "fim\xE2\x96\x81"
        "begin\xEF\xBD\x9C>",
        "<PRE>", "\xE2\x96\x81<PRE>", "<|code_prefix|>", "<|prefix|>"}},
      {&SpecialIds::fim_suf,
       {"<|fim_suffix|>", "<fim-suffix>", "<fim_suffix>",
        "<\xEF\xBD\x9C"
        "fim\xE2\x96\x81hole\xEF\xBD\x9C>",
        "<SUF>", "\xE2\x96\x81<SUF>", "<|code_suffix|>", "<|suffix|>"}},
      {&SpecialIds::fim_mid,
       {"<|fim_middle|>", "<fim-middle>", "<fim_middle>",
        "<\xEF\xBD\x9C"
        "fim\xE2\x96\x81"
        "end\xEF\xBD\x9C>",
        "<MID>", "\xE2\x96\x81<MID>", "<|code_middle|>", "<|middle|>"}},
      {&SpecialIds::fim_pad, {"<|fim_pad|>", "<fim-pad>", "<fim_pad>", "<PAD>", "[PAD]"}},
      {&SpecialIds::fim_rep,
       {"<|fim_repo|>", "<|repo_name|>", "<fim-repo>", "<REPO>", "<reponame>"}},
      {&SpecialIds::fim_sep, {"<|file_sep|>", "<fim-sep>", "<fim_sep>", "<FILE_SEP>"}},
  }};
  return rules;
}

// Texts of tokens that end a turn in some chat format: a model stops on
// them, and they are control tokens whatever type the file gives them, as
// in llama.cpp's vocabulary loader (so `</s>` is one token in a Qwen2
// prompt with specials parsed, and plain text in Phi-3's without).
constexpr std::array<std::string_view, 20> kEndOfGenerationTexts = {
    "<|eot_id|>",
    "<|im_end|>",
    "<|end|>",
    "<|return|>",
    "<|call|>",
    "<|flush|>",
    "<|calls|>",
    "<end_of_turn>",
    "<|endoftext|>",
    "</s>",
    "<|eom_id|>",
    "<EOT>",
    "_<EOT>",
    "[EOT]",
    "[EOS]",
    "<|end_of_text|>",
    "<end_of_utterance>",
    "<eos>",
    "<turn|>",
    "<|tool_response>",
};

// gpt-oss's channel markers are always rendered, whatever the file says.
constexpr std::array<std::string_view, 4> kAlwaysRenderedTexts = {"<|channel|>", "<|message|>",
                                                                  "<|start|>", "<|constrain|>"};

std::string lowercase(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

}  // namespace

void Vocab::read_special_ids(const gguf::Metadata& metadata) {
  special_ = default_special_ids(kind_);
  for (const SpecialIdKey& entry : kSpecialIdKeys) {
    if (!metadata.has(entry.key)) continue;
    auto id = metadata.get<int64_t>(entry.key);
    // Out-of-range ids (some files write 0xFFFFFFFF for "none") keep the default.
    if (id.ok() && *id >= 0 && *id < size()) special_.*entry.field = static_cast<int32_t>(*id);
  }
  if (kind_ == VocabKind::kWordPiece) {
    // BERT frames a text as [CLS] ... [SEP].
    if (!metadata.has("tokenizer.ggml.bos_token_id")) special_.bos = special_.cls;
    if (!metadata.has("tokenizer.ggml.eos_token_id")) special_.eos = special_.sep;
  }
  for (const SpecialIdKey& entry : kSpecialIdKeys) {
    if (!contains(special_.*entry.field)) special_.*entry.field = kNoToken;
  }
}

void Vocab::detect_special_ids_by_text() {
  for (const TextRule& rule : text_rules()) {
    if (special_.*rule.field != kNoToken) continue;
    for (std::string_view text : rule.texts) {
      int32_t id = find(text);
      if (id == kNoToken) continue;
      special_.*rule.field = id;
      mark_control(id);
      break;
    }
  }
}

void Vocab::collect_end_of_generation() {
  std::vector<int32_t> ids;
  for (int32_t id : {special_.eos, special_.eot, special_.eom, special_.fim_pad, special_.fim_rep,
                     special_.fim_sep}) {
    if (id != kNoToken) ids.push_back(id);
  }
  for (std::string_view text : kEndOfGenerationTexts) {
    int32_t id = find(text);
    if (id == kNoToken) continue;
    ids.push_back(id);
    mark_control(id);
  }
  for (std::string_view text : kAlwaysRenderedTexts) {
    if (int32_t id = find(text); id != kNoToken) tokens_[id].type = TokenType::kUserDefined;
  }
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  end_of_generation_ = std::move(ids);
  drop_end_of_generation_that_is_text();
}

// Two vocabularies use a listed text for something that is not the end of
// a turn: with harmony's <|return|> and <|call|> (or solar-open's <|calls|>
// and <|flush|>), <|end|> only ends a message; with Gemma 4's
// <|tool_response>, </s> is ordinary text.
void Vocab::drop_end_of_generation_that_is_text() {
  auto listed = [this](std::string_view text) {
    int32_t id = find(text);
    return id != kNoToken && is_end_of_generation(id) ? id : kNoToken;
  };
  auto drop = [this](int32_t id, TokenType type) {
    end_of_generation_.erase(std::find(end_of_generation_.begin(), end_of_generation_.end(), id));
    tokens_[id].type = type;
  };
  int32_t end = listed("<|end|>");
  bool harmony = listed("<|return|>") != kNoToken && listed("<|call|>") != kNoToken;
  bool solar = listed("<|calls|>") != kNoToken && listed("<|flush|>") != kNoToken;
  if (end != kNoToken && (harmony || solar)) drop(end, TokenType::kUserDefined);
  int32_t close_s = listed("</s>");
  if (close_s != kNoToken && listed("<|tool_response>") != kNoToken) {
    drop(close_s, TokenType::kNormal);
  }
}

// A token that plays a control role is matched as one in text (and hidden
// when decoding without specials), even when the file typed it as normal
// or user-defined; llama.cpp logs the same override.
void Vocab::mark_control(int32_t id) {
  if (tokens_[id].type == TokenType::kControl) return;
  spdlog::debug(
      "token {} '{}' looks like a control token but the file types it otherwise; "
      "treating it as control",
      id, tokens_[id].text);
  tokens_[id].type = TokenType::kControl;
}

// Phi-3's added tokens swallow the whitespace that follows them, as its
// Hugging Face tokenizer does; the file does not record this.
void Vocab::apply_model_strip_rules(const gguf::Metadata& metadata) {
  std::string name = lowercase(metadata.get_or<std::string>("general.name", ""));
  if (name.find("phi-3") == std::string::npos && name.find("phi3") == std::string::npos) return;
  for (int32_t id = 0; id < size(); ++id) {
    if (is_special(id)) tokens_[id].strip_right = true;
  }
  for (std::string_view text : {"</s>"}) {
    if (int32_t id = find(text); id != kNoToken) tokens_[id].strip_right = true;
  }
  for (std::string_view text : {"<unk>", "<s>", "<|endoftext|>"}) {
    if (int32_t id = find(text); id != kNoToken) tokens_[id].strip_right = false;
  }
}

}  // namespace ingot::tokenizer
