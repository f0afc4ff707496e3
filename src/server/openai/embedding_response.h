#pragma once
// The body of a /v1/embeddings reply, OpenAI's shape:
//   {"object": "list", "data": [{"object": "embedding", "index", "embedding"}],
//    "model", "usage": {"prompt_tokens", "total_tokens"}}
// Each vector is cut to `dimensions` first (Matryoshka), then normalized to
// unit length (L2, as llama.cpp does by default), and written as numbers or,
// for encoding_format "base64", as the base64 of its little-endian float32
// bytes (what the OpenAI SDK decodes).

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ingot::server {

std::vector<float> finished_embedding(std::vector<float> pooled, std::optional<int64_t> dimensions);

std::string base64_of_floats(const std::vector<float>& values);

nlohmann::ordered_json embedding_list(std::string_view model,
                                      const std::vector<std::vector<float>>& embeddings,
                                      bool base64, int64_t prompt_tokens);

}  // namespace ingot::server
