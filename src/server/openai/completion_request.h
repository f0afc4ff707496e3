#pragma once
// POST /v1/completions (the legacy text completion): a prompt instead of
// messages. Validation order: the body is an object; features not served
// (`n` other than 1, `suffix`, `best_of` above 1); `model`; `prompt` (a
// string or a list of token ids, alone or as a list of one); then the
// shared fields as for chat (max_tokens, which may be 0 here, sampling,
// stop, stream, logprobs, logit_bias), and `echo`. `logprobs` here is the
// legacy integer 0-20: that many alternatives per token; with `echo`, the
// prompt's tokens are scored too (what evaluation harnesses read).

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "server/api_error.h"
#include "server/openai/generation_fields.h"
#include "server/openai/structured_output_fields.h"

namespace ingot::server {

// `response_format` and `grammar` constrain the completion as they do a
// chat reply; there are no tools.
struct CompletionRequest : GenerationFields, StructuredOutputFields {
  std::string prompt;               // a text prompt, or
  std::vector<int32_t> prompt_ids;  // one already tokenized (then `prompt` is empty)
  bool echo = false;                // the reply starts with the prompt
};

// OpenAI's default for a completion that sets no max_tokens.
constexpr int64_t kDefaultCompletionMaxTokens = 16;

using CompletionRequestOrError = std::variant<CompletionRequest, ApiError>;

CompletionRequestOrError parse_completion_request(const nlohmann::ordered_json& body,
                                                  const RequestLimits& limits);

}  // namespace ingot::server
