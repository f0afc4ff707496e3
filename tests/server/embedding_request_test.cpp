// /v1/embeddings' body: the input forms OpenAI accepts, the refusals that
// name an input's index, and the reply's vectors (cut, normalized, base64).

#include "server/openai/embedding_request.h"

#include <gtest/gtest.h>

#include <cmath>

#include "server/openai/embedding_response.h"

namespace ingot::server {
namespace {

using json = nlohmann::ordered_json;

EmbeddingRequestOrError parse(json input, json extra = json::object()) {
  json body = {{"model", "m"}, {"input", std::move(input)}};
  for (auto& [key, value] : extra.items()) body[key] = value;
  return parse_embedding_request(body, RequestLimits{{"m"}, 100}, 4);
}

ApiError refused(json input, json extra = json::object()) {
  auto result = parse(std::move(input), std::move(extra));
  EXPECT_TRUE(std::holds_alternative<ApiError>(result));
  return std::holds_alternative<ApiError>(result) ? std::get<ApiError>(result) : ApiError{};
}

TEST(EmbeddingRequest, EveryInputFormOpenAiAccepts) {
  auto text = std::get<EmbeddingRequest>(parse("hello"));
  ASSERT_EQ(text.inputs.size(), 1u);
  EXPECT_EQ(text.inputs[0].text, "hello");
  auto texts = std::get<EmbeddingRequest>(parse({"a", "b"}));
  EXPECT_EQ(texts.inputs.size(), 2u);
  auto ids = std::get<EmbeddingRequest>(parse({1, 2, 151000}));
  ASSERT_EQ(ids.inputs.size(), 1u);
  EXPECT_EQ(ids.inputs[0].ids, (std::vector<int32_t>{1, 2, 151000}));
  auto lists = std::get<EmbeddingRequest>(parse({{1, 2}, {3}}));
  ASSERT_EQ(lists.inputs.size(), 2u);
  EXPECT_EQ(lists.inputs[1].ids, (std::vector<int32_t>{3}));
  auto options = std::get<EmbeddingRequest>(
      parse("x", {{"encoding_format", "base64"}, {"dimensions", 8}, {"truncate", true}}));
  EXPECT_TRUE(options.base64);
  EXPECT_EQ(options.dimensions, 8);
  EXPECT_TRUE(options.truncate);
}

TEST(EmbeddingRequest, RefusalsNameTheInput) {
  EXPECT_EQ(refused("").param, "input");
  ApiError second = refused({"a", ""});
  EXPECT_NE(second.message.find("input[1]"), std::string::npos) << second.message;
  EXPECT_EQ(refused(json::array()).param, "input");
  EXPECT_EQ(refused({{1}, json::array()}).param, "input");
  EXPECT_EQ(refused({-1}).param, "input");
  EXPECT_EQ(refused({"a", "b", "c", "d", "e"}).param, "input");  // more than 4
  EXPECT_EQ(refused(5).param, "input");
  EXPECT_EQ(refused("x", {{"encoding_format", "hex"}}).param, "encoding_format");
  EXPECT_EQ(refused("x", {{"dimensions", 0}}).param, "dimensions");
  EXPECT_EQ(refused("x", {{"model", "other"}}).status, 404);
}

TEST(EmbeddingResponse, VectorsAreCutThenNormalized) {
  const std::vector<float> cut = finished_embedding({3, 4, 12}, 2);
  ASSERT_EQ(cut.size(), 2u);
  EXPECT_FLOAT_EQ(cut[0], 0.6f);
  EXPECT_FLOAT_EQ(cut[1], 0.8f);
  EXPECT_EQ(finished_embedding({0, 0}, std::nullopt), (std::vector<float>{0, 0}));
}

TEST(EmbeddingResponse, Base64IsTheLittleEndianFloat32Bytes) {
  // 1.0f is 00 00 80 3f; 0.0f four zero bytes.
  EXPECT_EQ(base64_of_floats({1.0f}), "AACAPw==");
  EXPECT_EQ(base64_of_floats({1.0f, 0.0f}), "AACAPwAAAAA=");
  EXPECT_EQ(base64_of_floats({1.0f, 0.0f, 1.0f}), "AACAPwAAAAAAAIA/");
  const json list = embedding_list("m", {{1.0f}}, /*base64=*/true, 3);
  EXPECT_EQ(list["data"][0]["embedding"], "AACAPw==");
  EXPECT_EQ(list["usage"]["prompt_tokens"], 3);
  EXPECT_EQ(list["object"], "list");
}

}  // namespace
}  // namespace ingot::server
