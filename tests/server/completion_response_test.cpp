#include "server/openai/completion_response.h"

#include <gtest/gtest.h>

namespace ingot::server {
namespace {

engine::GeneratedToken token(int32_t id, std::string piece, float logprob,
                             std::vector<sampling::TokenLogprob> top, bool has_logprob = true) {
  return {id, std::move(piece), logprob, std::move(top), has_logprob};
}

// The shape of OpenAI's `Completion.choices[].logprobs`: parallel lists,
// with null for an echoed prompt's first token.
TEST(LegacyLogprobs, ParallelListsWithNullForThePromptsFirstToken) {
  std::vector<engine::GeneratedToken> tokens = {
      token(1, "<s>", 0, {}, /*has_logprob=*/false),
      token(7, " Once", -0.25f, {{7, -0.25f}, {8, -1.5f}}),
      token(9, " upon", -0.5f, {{9, -0.5f}, {7, -3.0f}}),
  };
  auto piece_of = [](int32_t id) { return id == 7 ? " Once" : id == 8 ? " One" : " upon"; };
  auto bytes_of = [](const engine::GeneratedToken& t) { return t.id == 1 ? 0 : t.piece.size(); };
  size_t offset = 0;
  ordered_json json = legacy_logprobs_json(tokens, piece_of, bytes_of, offset);
  EXPECT_EQ(json["tokens"], ordered_json({"<s>", " Once", " upon"}));
  EXPECT_TRUE(json["token_logprobs"][0].is_null());
  EXPECT_FLOAT_EQ(json["token_logprobs"][1].get<float>(), -0.25f);
  EXPECT_TRUE(json["top_logprobs"][0].is_null());
  EXPECT_FLOAT_EQ(json["top_logprobs"][1][" One"].get<float>(), -1.5f);
  EXPECT_EQ(json["top_logprobs"][2].size(), 2u);
  EXPECT_EQ(json["text_offset"], ordered_json({0, 0, 5}));
  EXPECT_EQ(offset, 10u);
  ordered_json next = legacy_logprobs_json({token(9, " upon", -1, {})}, piece_of, bytes_of, offset);
  EXPECT_EQ(next["text_offset"], ordered_json({10}));
  EXPECT_EQ(next["top_logprobs"][0], ordered_json::object());
}

}  // namespace
}  // namespace ingot::server
