#pragma once
// Shared by the tokenizer tests: tokenizers loaded once per test binary
// (the 150k-token vocabularies are the slow part) and the fixture files.

#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>
#include <string>
#include <vector>

#include "gguf/reader.h"
#include "support/shared_data.h"
#include "tokenizer/tokenizer.h"

namespace ingot::tokenizer::testing {

// The tokenizer of ../shared/<relative>, loaded on first use; null (with a
// test failure) when it does not load.
inline const Tokenizer* shared_tokenizer(const std::string& relative) {
  static std::mutex mutex;
  static std::map<std::string, std::unique_ptr<Tokenizer>> cache;
  std::lock_guard lock(mutex);
  auto it = cache.find(relative);
  if (it != cache.end()) return it->second.get();
  std::unique_ptr<Tokenizer> loaded;
  auto file = gguf::GgufFile::open(ingot::testing::shared_path(relative).string());
  if (!file.ok()) {
    ADD_FAILURE() << relative << ": " << file.error().describe();
  } else {
    auto tokenizer = Tokenizer::from_gguf(*file);
    if (tokenizer.ok()) {
      loaded = std::make_unique<Tokenizer>(std::move(tokenizer).value());
    } else {
      ADD_FAILURE() << relative << ": " << tokenizer.error().describe();
    }
  }
  return cache.emplace(relative, std::move(loaded)).first->second.get();
}

inline std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

// NAME.gguf.inp: texts separated by "\n__ggml_vocab_test__\n"; what follows
// the last separator is not a case.
inline std::vector<std::string> read_vector_inputs(const std::string& path) {
  const std::string separator = "\n__ggml_vocab_test__\n";
  std::string all = read_file(path);
  std::vector<std::string> inputs;
  size_t begin = 0;
  for (size_t at = all.find(separator); at != std::string::npos; at = all.find(separator, begin)) {
    inputs.push_back(all.substr(begin, at - begin));
    begin = at + separator.size();
  }
  return inputs;
}

// NAME.gguf.out: one line of space-separated ids per input.
inline std::vector<std::vector<int32_t>> read_vector_outputs(const std::string& path) {
  std::istringstream all(read_file(path));
  std::vector<std::vector<int32_t>> outputs;
  for (std::string line; std::getline(all, line);) {
    std::istringstream ids(line);
    std::vector<int32_t>& row = outputs.emplace_back();
    for (int32_t id; ids >> id;) row.push_back(id);
  }
  return outputs;
}

}  // namespace ingot::tokenizer::testing
