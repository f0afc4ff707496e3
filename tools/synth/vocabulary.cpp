#include "vocabulary.h"

#include <fmt/format.h>

#include <string_view>
#include <vector>

#include "gguf/reader.h"
#include "util/utf8.h"

namespace ingot::synth {
namespace {

constexpr int32_t kTokenNormal = 1;
constexpr int32_t kTokenControl = 3;

// GPT-2's byte-to-symbol map: printable Latin-1 bytes stand for themselves,
// the rest are shifted to code points from U+0100 on, in byte order.
std::vector<std::string> byte_symbols() {
  std::vector<std::string> symbols(256);
  char32_t next_shifted = 256;
  for (int byte = 0; byte < 256; ++byte) {
    bool printable = (byte >= '!' && byte <= '~') || (byte >= 0xA1 && byte <= 0xAC) || byte >= 0xAE;
    utf8::append(symbols[byte], printable ? static_cast<char32_t>(byte) : next_shifted++);
  }
  return symbols;
}

}  // namespace

Result<int64_t> copy_vocabulary_from_gguf(const std::string& path, gguf::GgufWriter& writer) {
  auto source = gguf::GgufFile::open(path);
  if (!source.ok()) return source.error();
  auto tokens = source->metadata().get<std::vector<std::string_view>>("tokenizer.ggml.tokens");
  if (!tokens.ok()) return tokens.error().add_context("while taking the vocabulary of " + path);
  for (const auto& [key, value] : source->metadata().entries()) {
    if (key.starts_with("tokenizer.")) writer.set(key, value);
  }
  return static_cast<int64_t>(tokens->size());
}

int64_t write_byte_vocabulary(gguf::GgufWriter& writer) {
  std::vector<std::string> tokens = byte_symbols();
  std::vector<int32_t> types(tokens.size(), kTokenNormal);
  for (const char* control : {"<|endoftext|>", "<|im_start|>", "<|im_end|>"}) {
    tokens.emplace_back(control);
    types.push_back(kTokenControl);
  }
  writer.set_string("tokenizer.ggml.model", "gpt2");
  writer.set_string("tokenizer.ggml.pre", "qwen2");
  writer.set_strings("tokenizer.ggml.tokens", tokens);
  writer.set_i32s("tokenizer.ggml.token_type", types);
  writer.set_strings("tokenizer.ggml.merges", std::span<const std::string>());
  writer.set_u32("tokenizer.ggml.eos_token_id", 258);
  writer.set_u32("tokenizer.ggml.padding_token_id", 256);
  writer.set_bool("tokenizer.ggml.add_bos_token", false);
  return static_cast<int64_t>(tokens.size());
}

}  // namespace ingot::synth
