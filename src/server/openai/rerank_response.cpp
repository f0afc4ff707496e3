#include "server/openai/rerank_response.h"

#include <algorithm>
#include <numeric>

namespace ingot::server {

nlohmann::ordered_json rerank_list(std::string_view model, const RerankRequest& request,
                                   const std::vector<float>& scores, int64_t prompt_tokens) {
  using json = nlohmann::ordered_json;
  std::vector<size_t> order(scores.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&scores](size_t a, size_t b) { return scores[a] > scores[b]; });
  if (request.top_n && size_t(*request.top_n) < order.size()) order.resize(size_t(*request.top_n));
  json results = json::array();
  for (size_t index : order) {
    json result = {{"index", index}, {"relevance_score", scores[index]}};
    if (request.return_documents) result["document"] = {{"text", request.documents[index]}};
    results.push_back(std::move(result));
  }
  return {{"object", "list"},
          {"model", model},
          {"results", std::move(results)},
          {"usage", {{"prompt_tokens", prompt_tokens}, {"total_tokens", prompt_tokens}}}};
}

}  // namespace ingot::server
