#include "server/openai/completion_response.h"

namespace ingot::server {

ordered_json legacy_logprobs_json(const std::vector<engine::GeneratedToken>& tokens,
                                  const PieceOf& piece_of, const TextBytesOf& text_bytes_of,
                                  size_t& offset) {
  ordered_json pieces = ordered_json::array();
  ordered_json logprobs = ordered_json::array();
  ordered_json alternatives = ordered_json::array();
  ordered_json offsets = ordered_json::array();
  for (const auto& token : tokens) {
    pieces.push_back(token.piece);
    offsets.push_back(offset);
    offset += text_bytes_of(token);
    if (!token.has_logprob) {
      logprobs.push_back(nullptr);
      alternatives.push_back(nullptr);
      continue;
    }
    logprobs.push_back(token.logprob);
    ordered_json top = ordered_json::object();
    for (const auto& alternative : token.top) {
      std::string piece = piece_of(alternative.id);
      if (!top.contains(piece)) top[piece] = alternative.logprob;
    }
    alternatives.push_back(std::move(top));
  }
  ordered_json json;
  json["tokens"] = std::move(pieces);
  json["token_logprobs"] = std::move(logprobs);
  json["top_logprobs"] = std::move(alternatives);
  json["text_offset"] = std::move(offsets);
  return json;
}

}  // namespace ingot::server
