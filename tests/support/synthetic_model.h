#pragma once
// Models ingot-synth writes for tests: a shape in a weight type with the
// real Qwen vocabulary of ../shared's tiny-qwen3 (an encoder's, "*bert*",
// with BGE's WordPiece vocabulary), written once per test
// process into its temporary folder (ingot-synth writes the same bytes for
// the same command every time). Needs ../shared.

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "support/shared_data.h"

namespace ingot::testing {

// `nextn` chooses the prediction block's weights (ingot-synth --nextn); a
// shape named "SHAPE-sN" is SHAPE written with seed N.
inline std::string synthetic_model(const std::string& shape, const std::string& type = "q8_0",
                                   const std::string& nextn = "random") {
  const std::string variant = nextn == "random" ? "" : "-nextn-" + nextn;
  const std::filesystem::path out = temp_dir() / (shape + "-" + type + variant + ".gguf");
  std::string base = shape, seed = "0";
  if (const size_t at = shape.rfind("-s");
      at != std::string::npos && at + 2 < shape.size() &&
      shape.find_first_not_of("0123456789", at + 2) == std::string::npos) {
    base = shape.substr(0, at);
    seed = shape.substr(at + 2);
  }
  const std::string vocabulary = shape.find("bert") != std::string::npos
                                     ? "fixtures/tokenizer/ggml-vocab-bert-bge.gguf"
                                     : "models/tiny-qwen3-f16.gguf";
  if (!std::filesystem::exists(out)) {
    const std::string command = (build_dir() / "ingot-synth").string() + " --shape " + base +
                                " --type " + type + " --seed " + seed + " --nextn " + nextn +
                                " --vocab-from " + shared_path(vocabulary).string() + " --out " +
                                out.string();
    EXPECT_EQ(std::system(command.c_str()), 0) << command;
  }
  return out.string();
}

// A LoRA adapter of `rank` for `shape` that ingot-synth writes with `seed`
// (in llama.cpp's format), once per test process.
inline std::string synthetic_lora(const std::string& shape, uint64_t seed, int rank = 8,
                                  const std::string& type = "f16") {
  const std::filesystem::path out =
      temp_dir() / (shape + "-lora-" + std::to_string(seed) + "-" + type + ".gguf");
  if (!std::filesystem::exists(out)) {
    const std::string command = (build_dir() / "ingot-synth").string() + " --shape " + shape +
                                " --type " + type + " --lora-rank " + std::to_string(rank) +
                                " --seed " + std::to_string(seed) + " --out " + out.string();
    EXPECT_EQ(std::system(command.c_str()), 0) << command;
  }
  return out.string();
}

}  // namespace ingot::testing
