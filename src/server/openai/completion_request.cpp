#include "server/openai/completion_request.h"

namespace ingot::server {
namespace {

using json = nlohmann::ordered_json;

void check_unsupported(Validator& v) {
  if (auto n = v.integer("n"); n && *n != 1) v.fail("Only n=1 is supported.", "n");
  if (v.boolean("echo").value_or(false)) v.fail("'echo' is not supported.", "echo");
  if (const json* suffix = v.field("suffix"); suffix && !v.failed()) {
    v.fail("'suffix' is not supported.", "suffix");
  }
  if (auto best_of = v.integer("best_of"); best_of && *best_of != 1) {
    v.fail("Only best_of=1 is supported.", "best_of");
  }
}

void check_prompt(Validator& v, CompletionRequest& request) {
  const json* prompt = v.field("prompt");
  if (prompt == nullptr || v.failed()) {
    if (!v.failed()) v.fail("'prompt' is required.", "prompt");
    return;
  }
  if (prompt->is_array() && prompt->size() == 1 && (*prompt)[0].is_string()) prompt = &(*prompt)[0];
  if (!prompt->is_string()) {
    return v.fail("'prompt' must be a string (a list of prompts is not supported).", "prompt");
  }
  request.prompt = prompt->get<std::string>();
  if (request.prompt.empty()) v.fail("'prompt' must not be empty.", "prompt");
}

// The legacy API's logprobs: an integer count of alternatives, 0-5.
void check_legacy_logprobs(Validator& v, CompletionRequest& request) {
  auto count = v.integer("logprobs");
  if (!count || v.failed()) return;
  if (*count < 0 || *count > 5) return v.fail("'logprobs' must be between 0 and 5.", "logprobs");
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
  check_max_tokens(v, limits, request);
  if (!request.max_tokens) request.max_tokens = kDefaultCompletionMaxTokens;
  check_sampling(v, request);
  check_stop(v, request);
  check_stream(v, request);
  check_legacy_logprobs(v, request);
  check_logit_bias(v, request);
  check_extensions(v, request);
  if (v.failed()) return v.take_error();
  return request;
}

}  // namespace ingot::server
