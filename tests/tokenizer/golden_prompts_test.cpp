// The prompt tokens llama.cpp produced for the golden logits
// (../shared/fixtures/golden/*.json): BOS as the model asks, special tokens
// parsed. Decoding them with specials written must give the prompt back.

#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "tokenizer_fixtures.h"

namespace ingot::tokenizer {
namespace {

TEST(GoldenPrompts, MatchLlamaCpp) {
  INGOT_REQUIRE_SHARED();
  int files = 0;
  for (const auto& entry :
       std::filesystem::directory_iterator(ingot::testing::shared_path("fixtures/golden"))) {
    if (entry.path().extension() != ".json") continue;
    ++files;
    auto golden = nlohmann::json::parse(testing::read_file(entry.path().string()));
    std::string model = golden.at("model").get<std::string>();
    const Tokenizer* tokenizer = testing::shared_tokenizer("models/" + model);
    ASSERT_NE(tokenizer, nullptr) << model;
    for (const auto& golden_case : golden.at("cases")) {
      std::string prompt = golden_case.at("prompt").get<std::string>();
      auto expected = golden_case.at("prompt_tokens").get<std::vector<int32_t>>();
      auto ids = tokenizer->encode(prompt, /*add_special=*/true, /*parse_special=*/true);
      EXPECT_EQ(ids, expected) << model << ": \"" << prompt << "\"";
      std::string decoded = tokenizer->decode(ids, {.render_special = true});
      std::string bos = tokenizer->vocab().add_bos() && !ids.empty()
                            ? tokenizer->token_to_piece(ids.front())
                            : std::string();
      EXPECT_EQ(decoded, bos + prompt) << model;
    }
  }
  EXPECT_GT(files, 0);
}

}  // namespace
}  // namespace ingot::tokenizer
