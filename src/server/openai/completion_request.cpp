#include "server/openai/completion_request.h"

#include <limits>

namespace ingot::server {
namespace {

using json = nlohmann::ordered_json;

void check_unsupported(Validator& v) {
  if (auto n = v.integer("n"); n && *n != 1) v.fail("Only n=1 is supported.", "n");
  if (const json* suffix = v.field("suffix"); suffix && !v.failed()) {
    v.fail("'suffix' is not supported.", "suffix");
  }
  if (auto best_of = v.integer("best_of"); best_of && *best_of != 1) {
    v.fail("Only best_of=1 is supported.", "best_of");
  }
}

// A list of token ids: integers, none negative (the route checks them
// against the vocabulary).
bool read_token_ids(const json& list, std::vector<int32_t>& ids) {
  for (const json& id : list) {
    if (!id.is_number_integer() && !id.is_number_unsigned()) return false;
    if (id.get<int64_t>() < 0 || id.get<int64_t>() > std::numeric_limits<int32_t>::max()) {
      return false;
    }
    ids.push_back(static_cast<int32_t>(id.get<int64_t>()));
  }
  return !ids.empty();
}

void check_prompt(Validator& v, CompletionRequest& request) {
  const json* prompt = v.field("prompt");
  if (prompt == nullptr || v.failed()) {
    if (!v.failed()) v.fail("'prompt' is required.", "prompt");
    return;
  }
  // A batch of one prompt is that prompt.
  if (prompt->is_array() && prompt->size() == 1 &&
      ((*prompt)[0].is_string() || (*prompt)[0].is_array())) {
    prompt = &(*prompt)[0];
  }
  if (prompt->is_array()) {
    if (!read_token_ids(*prompt, request.prompt_ids)) {
      v.fail(
          "'prompt' must be a string or a non-empty list of token ids (a list of prompts "
          "is not supported).",
          "prompt");
    }
    return;
  }
  if (!prompt->is_string()) {
    return v.fail("'prompt' must be a string (a list of prompts is not supported).", "prompt");
  }
  request.prompt = prompt->get<std::string>();
  if (request.prompt.empty()) v.fail("'prompt' must not be empty.", "prompt");
}

// The legacy API's logprobs: an integer count of alternatives, 0-20
// (OpenAI's own cap is 5; harnesses have asked for 10).
void check_legacy_logprobs(Validator& v, CompletionRequest& request) {
  auto count = v.integer("logprobs");
  if (!count || v.failed()) return;
  if (*count < 0 || *count > 20) return v.fail("'logprobs' must be between 0 and 20.", "logprobs");
  request.logprobs = true;
  request.top_logprobs = static_cast<int32_t>(*count);
}

}  // namespace

CompletionRequestOrError parse_completion_request(const json& body, const RequestLimits& limits) {
  if (!body.is_object()) return invalid_request("The request body must be a JSON object.");
  Validator v(body);
  CompletionRequest request;
  check_unsupported(v);
  check_model(v, limits, request);
  check_prompt(v, request);
  check_max_tokens(v, limits, request, /*allow_zero=*/true);
  if (!request.max_tokens) request.max_tokens = kDefaultCompletionMaxTokens;
  check_sampling(v, request);
  check_stop(v, request);
  check_stream(v, request);
  check_legacy_logprobs(v, request);
  check_logit_bias(v, request);
  check_extensions(v, request);
  check_response_format(v, request);
  check_grammar(v, request);
  request.echo = v.boolean("echo").value_or(false);
  if (v.failed()) return v.take_error();
  return request;
}

}  // namespace ingot::server
