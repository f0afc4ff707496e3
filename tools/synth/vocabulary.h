#pragma once
// Where a synthetic model's vocabulary comes from. Each source writes the
// tokenizer.* keys into the writer and returns the vocabulary size, which
// sets the embedding's row count.

#include <cstdint>
#include <string>

#include "gguf/writer.h"
#include "util/status.h"

namespace ingot::synth {

// Copies every tokenizer.* key of another GGUF (tokens, merges, special
// ids, chat template, ...).
Result<int64_t> copy_vocabulary_from_gguf(const std::string& path, gguf::GgufWriter& writer);

// A Hugging Face byte-level BPE tokenizer: tokenizer.json's vocabulary,
// merges and added tokens; tokenizer_config.json's special tokens and chat
// template (config_path may be empty).
Result<int64_t> import_hf_tokenizer(const std::string& tokenizer_path,
                                    const std::string& config_path, gguf::GgufWriter& writer);

// A minimal byte-level vocabulary (the 256 GPT-2 byte symbols and three
// ChatML control tokens, no merges) for when no tokenizer is given.
int64_t write_byte_vocabulary(gguf::GgufWriter& writer);

}  // namespace ingot::synth
