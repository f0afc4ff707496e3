// The GGUF reader on arbitrary bytes, then what loading does with a file
// that parses: the model configuration and the vocabulary.

#include <cstdint>
#include <span>

#include "gguf/reader.h"
#include "model/model_config.h"
#include "tokenizer/tokenizer.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace ingot;
  auto file = gguf::GgufFile::parse(std::span<const uint8_t>(data, size));
  if (!file.ok()) return 0;
  (void)model::ModelConfig::from_gguf(*file);
  auto tokenizer = tokenizer::Tokenizer::from_gguf(*file);
  if (tokenizer.ok()) {
    auto ids = tokenizer->encode("Hello <s> world", true, true);
    (void)tokenizer->decode(ids);
  }
  return 0;
}
