#pragma once
// The body of a /v1/rerank reply, llama-server's and Jina's shape:
//   {"object": "list", "model", "results": [{"index", "relevance_score",
//    "document"?: {"text"}}], "usage": {"prompt_tokens", "total_tokens"}}
// results sorted by score, best first (ties by index), cut to top_n. The
// score is the model's own (a BERT cross-encoder's logit, Qwen3-Reranker's
// probability of "yes"), as llama-server reports it.

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string_view>
#include <vector>

#include "server/openai/rerank_request.h"

namespace ingot::server {

nlohmann::ordered_json rerank_list(std::string_view model, const RerankRequest& request,
                                   const std::vector<float>& scores, int64_t prompt_tokens);

}  // namespace ingot::server
