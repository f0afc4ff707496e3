#include "server/openai/chat_response.h"

#include <chrono>

#include "server/random_id.h"

namespace ingot::server {

CompletionIdentity new_identity(std::string_view id_prefix, std::string model,
                                std::string system_fingerprint) {
  std::string id = random_id(id_prefix, 24);
  auto now = std::chrono::system_clock::now().time_since_epoch();
  return {std::move(id), std::chrono::duration_cast<std::chrono::seconds>(now).count(),
          std::move(model), std::move(system_fingerprint)};
}

std::string_view finish_reason_name(engine::FinishReason reason) {
  switch (reason) {
    case engine::FinishReason::kStop:
      return "stop";
    case engine::FinishReason::kLength:
      return "length";
    case engine::FinishReason::kCancelled:
      return "cancelled";
  }
  return "stop";
}

ordered_json usage_json(const engine::Usage& usage) {
  ordered_json json;
  json["prompt_tokens"] = usage.prompt_tokens;
  json["completion_tokens"] = usage.completion_tokens;
  json["total_tokens"] = usage.prompt_tokens + usage.completion_tokens;
  json["prompt_tokens_details"] = {{"cached_tokens", usage.cached_tokens}};
  json["completion_tokens_details"] = {{"reasoning_tokens", usage.reasoning_tokens}};
  return json;
}

namespace {

ordered_json token_json(const std::string& piece, float logprob) {
  ordered_json bytes = ordered_json::array();
  for (unsigned char c : piece) bytes.push_back(c);
  ordered_json json;
  json["token"] = piece;
  json["logprob"] = logprob;
  json["bytes"] = std::move(bytes);
  return json;
}

}  // namespace

ordered_json logprobs_json(const std::vector<engine::GeneratedToken>& tokens, bool with_top,
                           const PieceOf& piece_of) {
  ordered_json content = ordered_json::array();
  for (const auto& token : tokens) {
    ordered_json entry = token_json(token.piece, token.logprob);
    ordered_json top = ordered_json::array();
    if (with_top) {
      for (const auto& alternative : token.top) {
        top.push_back(token_json(piece_of(alternative.id), alternative.logprob));
      }
    }
    entry["top_logprobs"] = std::move(top);
    content.push_back(std::move(entry));
  }
  return {{"content", std::move(content)}};
}

std::string dump(const ordered_json& value) {
  return value.dump(-1, ' ', false, ordered_json::error_handler_t::replace);
}

}  // namespace ingot::server
