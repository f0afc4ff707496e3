#pragma once
// POST /v1/rerank (and /rerank), the shape llama-server, Jina and Cohere
// share. Validation order: the body is an object; `model` (optional, as
// llama-server has it, but one this server serves when given); `query` (a
// non-empty string); `documents` (a non-empty list of at most `max_inputs`
// strings, each non-empty; a document may also be an object with a
// "text" string, as Cohere's and Jina's clients send); `top_n` (a
// positive integer); `return_documents` (a boolean). A problem with one
// document names its index.

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "server/api_error.h"
#include "server/openai/generation_fields.h"

namespace ingot::server {

struct RerankRequest {
  std::string model;
  std::string query;
  std::vector<std::string> documents;
  std::optional<int64_t> top_n;  // keep the best this many; all when absent
  bool return_documents = false;
};

using RerankRequestOrError = std::variant<RerankRequest, ApiError>;

RerankRequestOrError parse_rerank_request(const nlohmann::ordered_json& body,
                                          const RequestLimits& limits, int64_t max_inputs);

}  // namespace ingot::server
