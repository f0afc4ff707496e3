// A LoRA adapter file on arbitrary bytes, read for a small qwen3 model (the
// shape `ingot-synth --shape tiny` writes, whose adapters seed the corpus):
// the GGUF reader, then the adapter's own checks of its pairs' shapes.

#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <string>

#include "model/lora_adapter.h"

namespace {

ingot::model::ModelConfig tiny_qwen3() {
  ingot::model::ModelConfig config;
  config.traits = *ingot::model::find_architecture("qwen3");
  config.n_vocab = 151936;
  config.n_embd = 256;
  config.n_layers = 2;
  config.n_ff = 768;
  config.n_heads = 4;
  config.n_kv_heads = 2;
  config.head_dim = 64;
  config.context_length = 8192;
  return config;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const ingot::model::ModelConfig config = tiny_qwen3();
  // The adapter is read from a file (it stays mapped): one in memory.
  const int fd = memfd_create("lora", MFD_CLOEXEC);
  if (fd < 0) return 0;
  if (size > 0 && write(fd, data, size) != static_cast<ssize_t>(size)) {
    close(fd);
    return 0;
  }
  (void)ingot::model::LoraAdapter::load("/proc/self/fd/" + std::to_string(fd), config);
  close(fd);
  return 0;
}
