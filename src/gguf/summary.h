#pragma once
// What a GGUF file holds, read from its header and tensor table only (the
// tensor data is never touched): the facts `ingot doctor` prints and that a
// loader checks before committing memory. Keys follow llama.cpp's naming
// ("<arch>.block_count", "tokenizer.ggml.bos_token_id", ...).

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "gguf/reader.h"

namespace ingot::gguf {

struct TensorTypeCount {
  size_t tensors = 0;
  uint64_t elements = 0;
  uint64_t bytes = 0;
  std::string example;  // one tensor of this type, for messages
};

struct SpecialToken {
  std::string role;  // "bos", "eos", "eot", "pad", "unk"
  uint32_t id;
  std::optional<std::string> text;  // nullopt when the id is past the vocabulary
};

struct FileSummary {
  std::string architecture;
  std::string name;
  uint32_t version = 0;
  uint64_t file_size = 0;
  uint64_t parameter_count = 0;
  uint64_t weight_bytes = 0;
  std::map<kernels::ElementType, TensorTypeCount> tensor_types;

  std::optional<uint64_t> context_length;
  std::optional<uint64_t> block_count;
  std::optional<uint64_t> embedding_length;
  std::optional<uint64_t> feed_forward_length;
  std::optional<uint64_t> head_count;
  std::optional<uint64_t> head_count_kv;  // defaults to head_count, as in llama.cpp
  // A per-layer head_count_kv (Gemma 4): head_count_kv is the largest, this
  // the smallest.
  std::optional<uint64_t> fewest_head_count_kv;
  std::optional<uint64_t> key_length;  // per head; embedding / heads when not stored
  std::optional<uint64_t> value_length;

  double rope_freq_base = 10000.0;
  std::optional<uint64_t> rope_dimension_count;
  std::string rope_scaling_type = "none";
  std::optional<double> rope_scaling_factor;

  std::string vocabulary_type;  // tokenizer.ggml.model: "llama", "gpt2", "bert", ...
  std::string pre_tokenizer;    // tokenizer.ggml.pre
  size_t vocabulary_size = 0;
  std::vector<SpecialToken> special_tokens;
  bool has_chat_template = false;

  // Bytes of an F16 K and V cache for `context` positions in each of
  // `sequences` slots; nullopt when the shape facts are missing.
  std::optional<uint64_t> kv_cache_bytes(uint64_t context, uint64_t sequences) const;
};

FileSummary summarize(const GgufFile& file);

}  // namespace ingot::gguf
