// /v1/rerank's body: the fields llama-server, Jina and Cohere send, the
// refusals that name a document's index, and the reply's order, top_n
// and documents.

#include "server/openai/rerank_request.h"

#include <gtest/gtest.h>

#include "server/openai/rerank_response.h"

namespace ingot::server {
namespace {

using json = nlohmann::ordered_json;

RerankRequestOrError parse(json extra) {
  json body = {{"model", "m"}, {"query", "q"}, {"documents", {"a", "b", "c"}}};
  for (auto& [key, value] : extra.items()) body[key] = value;
  return parse_rerank_request(body, RequestLimits{{"m"}, 100}, 4);
}

ApiError refused(json extra) {
  auto result = parse(std::move(extra));
  EXPECT_TRUE(std::holds_alternative<ApiError>(result));
  return std::holds_alternative<ApiError>(result) ? std::get<ApiError>(result) : ApiError{};
}

TEST(RerankRequest, ReadsTheFields) {
  auto plain = std::get<RerankRequest>(parse(json::object()));
  EXPECT_EQ(plain.query, "q");
  EXPECT_EQ(plain.documents, (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_FALSE(plain.top_n.has_value());
  EXPECT_FALSE(plain.return_documents);
  auto all = std::get<RerankRequest>(
      parse({{"top_n", 2}, {"return_documents", true}, {"documents", {"x", {{"text", "y"}}}}}));
  EXPECT_EQ(all.top_n, 2);
  EXPECT_TRUE(all.return_documents);
  EXPECT_EQ(all.documents, (std::vector<std::string>{"x", "y"}));  // Cohere's {"text"} form
}

TEST(RerankRequest, RefusalsNameTheField) {
  EXPECT_EQ(refused({{"query", ""}}).param, "query");
  EXPECT_EQ(refused({{"query", 3}}).param, "query");
  EXPECT_EQ(refused({{"documents", json::array()}}).param, "documents");
  EXPECT_EQ(refused({{"documents", "a"}}).param, "documents");
  ApiError empty = refused({{"documents", {"a", ""}}});
  EXPECT_EQ(empty.param, "documents");
  EXPECT_NE(empty.message.find("documents[1]"), std::string::npos) << empty.message;
  EXPECT_NE(refused({{"documents", {"a", 7}}}).message.find("documents[1]"), std::string::npos);
  ApiError many = refused({{"documents", {"a", "b", "c", "d", "e"}}});
  EXPECT_NE(many.message.find("at most 4"), std::string::npos) << many.message;
  EXPECT_EQ(refused({{"top_n", 0}}).param, "top_n");
  EXPECT_EQ(refused({{"top_n", "2"}}).param, "top_n");
  EXPECT_EQ(refused({{"return_documents", "yes"}}).param, "return_documents");
  EXPECT_EQ(refused({{"model", "other"}}).param, "model");
  auto unnamed = parse_rerank_request(json{{"query", "q"}, {"documents", {"a"}}},
                                      RequestLimits{{"m"}, 100}, 4);
  EXPECT_TRUE(std::holds_alternative<RerankRequest>(unnamed));  // as llama-server's clients send
  auto missing = parse_rerank_request(json{{"model", "m"}, {"documents", {"a"}}},
                                      RequestLimits{{"m"}, 100}, 4);
  ASSERT_TRUE(std::holds_alternative<ApiError>(missing));
  EXPECT_EQ(std::get<ApiError>(missing).param, "query");
}

TEST(RerankResponse, SortsByScoreCutsToTopNAndCarriesDocuments) {
  RerankRequest request;
  request.documents = {"a", "b", "c", "d"};
  const std::vector<float> scores{0.5f, 2.0f, -1.0f, 2.0f};
  json all = rerank_list("m", request, scores, 40);
  ASSERT_EQ(all["results"].size(), 4u);
  std::vector<size_t> order;
  for (const json& r : all["results"]) order.push_back(r["index"].get<size_t>());
  EXPECT_EQ(order, (std::vector<size_t>{1, 3, 0, 2}));  // ties keep the documents' order
  EXPECT_FALSE(all["results"][0].contains("document"));
  EXPECT_FLOAT_EQ(all["results"][0]["relevance_score"].get<float>(), 2.0f);
  EXPECT_EQ(all["usage"]["prompt_tokens"], 40);
  EXPECT_EQ(all["model"], "m");
  request.top_n = 2;
  request.return_documents = true;
  json top = rerank_list("m", request, scores, 40);
  ASSERT_EQ(top["results"].size(), 2u);
  EXPECT_EQ(top["results"][1]["document"]["text"], "d");
  request.top_n = 10;
  EXPECT_EQ(rerank_list("m", request, scores, 40)["results"].size(), 4u);
}

}  // namespace
}  // namespace ingot::server
