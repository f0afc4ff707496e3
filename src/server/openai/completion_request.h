#pragma once
// POST /v1/completions (the legacy text completion): a prompt string
// instead of messages. Validation order: the body is an object; features
// not served (`n` other than 1, `echo`, `suffix`, `best_of` above 1);
// `model`; `prompt`; then the shared fields as for chat (max_tokens,
// sampling, stop, stream, logprobs, logit_bias). `logprobs` here is the
// legacy integer 0-5: that many alternatives per token.

#include <string>
#include <variant>

#include "server/api_error.h"
#include "server/openai/generation_fields.h"

namespace ingot::server {

struct CompletionRequest : GenerationFields {
  std::string prompt;
};

// OpenAI's default for a completion that sets no max_tokens.
constexpr int64_t kDefaultCompletionMaxTokens = 16;

using CompletionRequestOrError = std::variant<CompletionRequest, ApiError>;

CompletionRequestOrError parse_completion_request(const nlohmann::ordered_json& body,
                                                  const RequestLimits& limits);

}  // namespace ingot::server
