#pragma once
// The JSON shapes of OpenAI's replies: whole chat completions, stream
// chunks, usage and logprobs. Pure functions of what the engine produced.

#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/generation_request.h"

namespace ingot::server {

using ordered_json = nlohmann::ordered_json;

// What every chunk and reply of one completion shares.
struct CompletionIdentity {
  std::string id;  // "chatcmpl-..." or "cmpl-..."
  int64_t created = 0;
  std::string model;
  std::string system_fingerprint;
};

CompletionIdentity new_identity(std::string_view id_prefix, std::string model,
                                std::string system_fingerprint);

std::string_view finish_reason_name(engine::FinishReason reason);

ordered_json usage_json(const engine::Usage& usage);

// {"content": [{"token", "logprob", "bytes", "top_logprobs"}...]}
using PieceOf = std::function<std::string(int32_t)>;
ordered_json logprobs_json(const std::vector<engine::GeneratedToken>& tokens, bool with_top,
                           const PieceOf& piece_of);

// JSON text whose strings may hold bytes that are not UTF-8 (a logprob
// token's partial character): those become U+FFFD instead of an exception.
std::string dump(const ordered_json& value);

}  // namespace ingot::server
