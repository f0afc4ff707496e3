#pragma once
// The kinds of vocabulary and token that GGUF files describe.

#include <cstdint>

namespace ingot::tokenizer {

// Which algorithm turns text into ids (`tokenizer.ggml.model`).
enum class VocabKind {
  kSentencePiece,     // "llama": score-ordered merges over characters, byte fallback
  kBytePairEncoding,  // "gpt2": byte-level BPE by merge rank after a regex split
  kWordPiece,         // "bert": greedy longest match inside normalized words
};

// The values of `tokenizer.ggml.token_type`.
enum class TokenType : uint8_t {
  kUndefined = 0,
  kNormal = 1,
  kUnknown = 2,
  kControl = 3,
  kUserDefined = 4,
  kUnused = 5,
  kByte = 6,
};

// An absent token id (no such special token in this vocabulary).
inline constexpr int32_t kNoToken = -1;

}  // namespace ingot::tokenizer
