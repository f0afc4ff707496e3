#pragma once
// POST /v1/embeddings, OpenAI's shape. Validation order: the body is an
// object; `model`; `input` (a string, a list of strings, a list of token
// ids, or a list of such lists; none of them empty, at most
// `max_inputs`); `encoding_format` ("float" or "base64"); `dimensions` (a
// positive integer); `truncate` (llama-server's: a boolean). A problem
// with one input names its index.

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "server/api_error.h"
#include "server/openai/generation_fields.h"

namespace ingot::server {

// One input: text to tokenize, or ids already tokenized.
struct EmbeddingInput {
  std::string text;
  std::vector<int32_t> ids;  // when given, `text` is empty
};

struct EmbeddingRequest {
  std::string model;
  std::vector<EmbeddingInput> inputs;
  bool base64 = false;                // encoding_format "base64"
  std::optional<int64_t> dimensions;  // keep the first this many, then normalize
  bool truncate = false;              // cut an input longer than the context
};

using EmbeddingRequestOrError = std::variant<EmbeddingRequest, ApiError>;

EmbeddingRequestOrError parse_embedding_request(const nlohmann::ordered_json& body,
                                                const RequestLimits& limits, int64_t max_inputs);

}  // namespace ingot::server
