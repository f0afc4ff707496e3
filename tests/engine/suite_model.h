#pragma once
// A model from ../shared and its tokenizer, loaded once for a whole test
// suite: engine tests start many engines on one model, and loading it per
// test would dominate their time.

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "engine/request_handle.h"
#include "model/model.h"
#include "support/shared_data.h"
#include "tokenizer/tokenizer.h"

namespace ingot::engine {

// The ids of a reply's tokens, in order.
inline std::vector<int32_t> token_ids(const CollectedReply& reply) {
  std::vector<int32_t> out;
  for (const auto& token : reply.tokens) out.push_back(token.id);
  return out;
}

struct SuiteModel {
  std::unique_ptr<model::Model> model;
  std::unique_ptr<tokenizer::Tokenizer> tokenizer;

  // Loads ../shared/<relative>, or nothing when ../shared is absent (the
  // tests skip then); a file that does not load fails the suite.
  void load(const std::string& relative) {
    if (::ingot::testing::shared_dir().empty()) return;
    load_file(::ingot::testing::shared_path(relative).string());
  }

  void load_file(const std::string& path) {
    auto loaded = model::Model::load(path);
    ASSERT_TRUE(loaded.ok()) << loaded.error().describe();
    model = std::move(loaded).value();
    auto vocab = tokenizer::Tokenizer::from_gguf(model->file());
    ASSERT_TRUE(vocab.ok()) << vocab.error().describe();
    tokenizer = std::make_unique<tokenizer::Tokenizer>(std::move(vocab).value());
  }

  // The tokenizer first: it was read from the model's file.
  void reset() {
    tokenizer.reset();
    model.reset();
  }
};

}  // namespace ingot::engine
