#include "server/openai/rerank_request.h"

#include "server/openai/field_validator.h"

namespace ingot::server {
namespace {

using json = nlohmann::ordered_json;

void check_query(Validator& v, RerankRequest& request) {
  const json* query = v.field("query");
  if (v.failed()) return;
  if (query == nullptr) return v.fail("'query' is required.", "query");
  if (!query->is_string()) return v.fail("'query' must be a string.", "query");
  request.query = query->get<std::string>();
  if (request.query.empty()) return v.fail("'query' must not be an empty string.", "query");
}

// A document's text: a string, or an object whose "text" is one.
std::optional<std::string> document_text(const json& value) {
  if (value.is_string()) return value.get<std::string>();
  if (value.is_object()) {
    auto text = value.find("text");
    if (text != value.end() && text->is_string()) return text->get<std::string>();
  }
  return std::nullopt;
}

void check_documents(Validator& v, int64_t max_inputs, RerankRequest& request) {
  const json* documents = v.field("documents");
  if (v.failed()) return;
  if (documents == nullptr) return v.fail("'documents' is required.", "documents");
  if (!documents->is_array()) return v.fail("'documents' must be a list of strings.", "documents");
  if (documents->empty()) return v.fail("'documents' must not be an empty list.", "documents");
  if (int64_t(documents->size()) > max_inputs) {
    return v.fail("'documents' holds " + std::to_string(documents->size()) +
                      " documents; at most " + std::to_string(max_inputs) +
                      " are accepted (--max-embedding-inputs).",
                  "documents");
  }
  for (size_t i = 0; i < documents->size(); ++i) {
    const std::string at = "'documents[" + std::to_string(i) + "]'";
    std::optional<std::string> text = document_text((*documents)[i]);
    if (!text) return v.fail(at + " must be a string.", "documents");
    if (text->empty()) return v.fail(at + " must not be an empty string.", "documents");
    request.documents.push_back(std::move(*text));
  }
}

void check_top_n(Validator& v, RerankRequest& request) {
  const std::optional<int64_t> top_n = v.integer("top_n");
  if (!top_n || v.failed()) return;
  if (*top_n < 1) return v.fail("'top_n' must be at least 1.", "top_n");
  request.top_n = top_n;
}

}  // namespace

RerankRequestOrError parse_rerank_request(const json& body, const RequestLimits& limits,
                                          int64_t max_inputs) {
  if (!body.is_object()) return invalid_request("The request body must be a JSON object.");
  Validator v(body);
  RerankRequest request;
  // llama-server's clients may leave the model out; Jina's and Cohere's
  // name it, and then it must be one this server serves.
  if (v.field("model") != nullptr) {
    GenerationFields model;
    check_model(v, limits, model);
    request.model = model.model;
  }
  check_query(v, request);
  check_documents(v, max_inputs, request);
  check_top_n(v, request);
  request.return_documents = v.boolean("return_documents").value_or(false);
  if (v.failed()) return v.take_error();
  return request;
}

}  // namespace ingot::server
