#pragma once
// The generation routes' answer to a model that only embeds or only ranks.

#include <optional>

#include "server/api_error.h"
#include "server/serving_context.h"

namespace ingot::server {

// The refusal, saying what the model serves; nothing when it generates.
std::optional<ApiError> refusal_for_non_generative_model(const ServingContext& context);

}  // namespace ingot::server
