#include "gguf/summary.h"

#include <algorithm>
#include <cstdint>
#include <memory>

namespace ingot::gguf {
namespace {

std::optional<uint64_t> optional_count(const Metadata& metadata, const std::string& key) {
  auto value = metadata.get<uint64_t>(key);
  if (!value.ok()) return std::nullopt;
  return *value;
}

void count_tensors(const GgufFile& file, FileSummary& summary) {
  for (const TensorInfo& tensor : file.tensors()) {
    TensorTypeCount& count = summary.tensor_types[tensor.type];
    if (count.tensors++ == 0) count.example = std::string(tensor.name);
    count.elements += static_cast<uint64_t>(tensor.element_count());
    count.bytes += tensor.n_bytes;
    summary.parameter_count += static_cast<uint64_t>(tensor.element_count());
    summary.weight_bytes += tensor.n_bytes;
  }
}

void read_shape(const Metadata& m, FileSummary& s) {
  s.context_length = optional_count(m, m.arch_key("context_length"));
  s.block_count = optional_count(m, m.arch_key("block_count"));
  s.embedding_length = optional_count(m, m.arch_key("embedding_length"));
  s.feed_forward_length = optional_count(m, m.arch_key("feed_forward_length"));
  s.head_count = optional_count(m, m.arch_key("attention.head_count"));
  s.head_count_kv = optional_count(m, m.arch_key("attention.head_count_kv"));
  if (auto per_layer = m.get<std::vector<uint32_t>>(m.arch_key("attention.head_count_kv"));
      per_layer.ok() && !per_layer->empty()) {
    s.head_count_kv = *std::max_element(per_layer->begin(), per_layer->end());
    s.fewest_head_count_kv = *std::min_element(per_layer->begin(), per_layer->end());
  }
  if (!s.head_count_kv) s.head_count_kv = s.head_count;
  s.key_length = optional_count(m, m.arch_key("attention.key_length"));
  if (!s.key_length && s.embedding_length && s.head_count && *s.head_count != 0) {
    s.key_length = *s.embedding_length / *s.head_count;
  }
  s.value_length = optional_count(m, m.arch_key("attention.value_length"));
  if (!s.value_length) s.value_length = s.key_length;
}

void read_rope(const Metadata& m, FileSummary& s) {
  s.rope_freq_base = m.get_or<double>(m.arch_key("rope.freq_base"), s.rope_freq_base);
  s.rope_dimension_count = optional_count(m, m.arch_key("rope.dimension_count"));
  s.rope_scaling_type = m.get_or<std::string>(m.arch_key("rope.scaling.type"), "none");
  auto factor = m.get<double>(m.arch_key("rope.scaling.factor"));
  if (factor.ok()) s.rope_scaling_factor = *factor;
}

struct SpecialTokenKey {
  const char* role;
  const char* key;
};
constexpr SpecialTokenKey kSpecialTokenKeys[] = {
    {"bos", "tokenizer.ggml.bos_token_id"},     {"eos", "tokenizer.ggml.eos_token_id"},
    {"eot", "tokenizer.ggml.eot_token_id"},     {"pad", "tokenizer.ggml.padding_token_id"},
    {"unk", "tokenizer.ggml.unknown_token_id"},
};

const Array* token_array(const Metadata& m) {
  const Value* tokens = m.find("tokenizer.ggml.tokens");
  if (tokens == nullptr || tokens->type != ValueType::kArray) return nullptr;
  return std::get<std::shared_ptr<const Array>>(tokens->storage).get();
}

void read_vocabulary(const Metadata& m, FileSummary& s) {
  s.vocabulary_type = m.get_or<std::string>("tokenizer.ggml.model", "");
  s.pre_tokenizer = m.get_or<std::string>("tokenizer.ggml.pre", "");
  const Array* tokens = token_array(m);
  if (tokens != nullptr) s.vocabulary_size = tokens->items.size();
  s.has_chat_template = m.has("tokenizer.chat_template");
  for (const auto& [role, key] : kSpecialTokenKeys) {
    auto id = m.get<uint32_t>(key);
    // llama.cpp writes -1 (as uint32) for "no such token".
    if (!id.ok() || *id == UINT32_MAX) continue;
    SpecialToken token{role, *id, std::nullopt};
    if (tokens != nullptr && *id < tokens->items.size()) {
      const auto* text = std::get_if<std::string_view>(&tokens->items[*id].storage);
      if (text != nullptr) token.text = std::string(*text);
    }
    s.special_tokens.push_back(std::move(token));
  }
}

}  // namespace

std::optional<uint64_t> FileSummary::kv_cache_bytes(uint64_t context, uint64_t sequences) const {
  if (!block_count || !head_count_kv || !key_length || !value_length) return std::nullopt;
  constexpr uint64_t kF16Bytes = 2;
  uint64_t per_position = *block_count * *head_count_kv * (*key_length + *value_length) * kF16Bytes;
  uint64_t total = 0;
  if (__builtin_mul_overflow(per_position, context, &total) ||
      __builtin_mul_overflow(total, sequences, &total)) {
    return std::nullopt;
  }
  return total;
}

FileSummary summarize(const GgufFile& file) {
  const Metadata& metadata = file.metadata();
  FileSummary summary;
  summary.architecture = std::string(metadata.architecture());
  summary.name = metadata.get_or<std::string>("general.name", "");
  summary.version = file.version();
  summary.file_size = file.file_size();
  count_tensors(file, summary);
  read_shape(metadata, summary);
  read_rope(metadata, summary);
  read_vocabulary(metadata, summary);
  return summary;
}

}  // namespace ingot::gguf
