// `serve --models-config`'s file, TOML or JSON, on arbitrary text: every
// key checked, every wrong one an error and never a crash.

#include <cstdint>
#include <string>

#include "fuzz_input.h"
#include "server/models/models_config.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  ingot::fuzz::FuzzInput input(data, size);
  const char* format = input.flag() ? "json" : "toml";
  (void)ingot::server::parse_models_config(std::string(input.rest()), format);
  return 0;
}
