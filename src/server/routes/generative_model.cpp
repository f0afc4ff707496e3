#include "server/routes/generative_model.h"

#include <string>

namespace ingot::server {

std::optional<ApiError> refusal_for_non_generative_model(const ServingContext& context) {
  using Purpose = ModelCapability::Purpose;
  if (context.capability.purpose == Purpose::kRerank) {
    return invalid_request("The model '" + context.identity.model_id +
                               "' is a reranking model: it answers POST /v1/rerank, not "
                               "generation requests.",
                           "model", "model_not_generative");
  }
  if (context.capability.purpose != Purpose::kEmbed) return std::nullopt;
  return invalid_request("The model '" + context.identity.model_id +
                             "' is an embedding model: it answers POST /v1/embeddings, not "
                             "generation requests.",
                         "model", "model_not_generative");
}

}  // namespace ingot::server
