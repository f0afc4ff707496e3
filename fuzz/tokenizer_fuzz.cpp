// The tokenizers on arbitrary text: SentencePiece, byte-level BPE and
// WordPiece vocabularies from ../shared, encoded with and without special
// tokens, decoded whole and as a stream. Without ../shared it does nothing.

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "fuzz_input.h"
#include "gguf/reader.h"
#include "tokenizer/streaming_decoder.h"
#include "tokenizer/tokenizer.h"

namespace {

std::filesystem::path shared_dir() {
  if (const char* env = std::getenv("INGOT_SHARED_DIR"); env && *env) return env;
  return std::filesystem::path(INGOT_SOURCE_DIR) / ".." / "shared";
}

std::vector<std::unique_ptr<ingot::tokenizer::Tokenizer>> load_tokenizers() {
  std::vector<std::unique_ptr<ingot::tokenizer::Tokenizer>> out;
  for (const char* file :
       {"fixtures/tokenizer/ggml-vocab-llama-spm.gguf", "models/tiny-qwen2-f16.gguf",
        "fixtures/tokenizer/ggml-vocab-bert-bge.gguf", "fixtures/tokenizer/ggml-vocab-phi-3.gguf",
        "fixtures/tokenizer/ggml-vocab-gpt-2.gguf"}) {
    auto gguf = ingot::gguf::GgufFile::open((shared_dir() / file).string());
    if (!gguf.ok()) continue;
    auto tokenizer = ingot::tokenizer::Tokenizer::from_gguf(*gguf);
    if (tokenizer.ok())
      out.push_back(std::make_unique<ingot::tokenizer::Tokenizer>(std::move(*tokenizer)));
  }
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const auto tokenizers = load_tokenizers();
  if (tokenizers.empty()) return 0;
  ingot::fuzz::FuzzInput input(data, size);
  const auto& tokenizer = *tokenizers[input.choice(tokenizers.size())];
  bool add_special = input.flag();
  bool parse_special = input.flag();
  std::string text(input.rest());
  std::vector<int32_t> ids = tokenizer.encode(text, add_special, parse_special);
  (void)tokenizer.decode(ids);
  ingot::tokenizer::StreamingDecoder stream(tokenizer, {});
  for (int32_t id : ids) (void)stream.push(id);
  (void)stream.flush();
  return 0;
}
