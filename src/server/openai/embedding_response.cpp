#include "server/openai/embedding_response.h"

#include <bit>
#include <cmath>
#include <cstring>

namespace ingot::server {

std::vector<float> finished_embedding(std::vector<float> pooled,
                                      std::optional<int64_t> dimensions) {
  if (dimensions && *dimensions < int64_t(pooled.size())) pooled.resize(size_t(*dimensions));
  double sum = 0;
  for (float value : pooled) sum += double(value) * value;
  if (sum > 0) {
    const auto scale = float(1.0 / std::sqrt(sum));
    for (float& value : pooled) value *= scale;
  }
  return pooled;
}

std::string base64_of_floats(const std::vector<float>& values) {
  static_assert(std::endian::native == std::endian::little, "float32 bytes go out little-endian");
  static constexpr char kAlphabet[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string bytes(values.size() * sizeof(float), '\0');
  std::memcpy(bytes.data(), values.data(), bytes.size());
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  for (size_t i = 0; i < bytes.size(); i += 3) {
    const size_t n = std::min<size_t>(3, bytes.size() - i);
    uint32_t chunk = 0;
    for (size_t j = 0; j < 3; ++j) {
      chunk = chunk << 8 | (j < n ? static_cast<uint8_t>(bytes[i + j]) : 0u);
    }
    for (size_t j = 0; j < 4; ++j) {
      out.push_back(j <= n ? kAlphabet[(chunk >> (18 - 6 * j)) & 0x3f] : '=');
    }
  }
  return out;
}

nlohmann::ordered_json embedding_list(std::string_view model,
                                      const std::vector<std::vector<float>>& embeddings,
                                      bool base64, int64_t prompt_tokens) {
  nlohmann::ordered_json data = nlohmann::ordered_json::array();
  for (size_t i = 0; i < embeddings.size(); ++i) {
    nlohmann::ordered_json vector = base64 ? nlohmann::ordered_json(base64_of_floats(embeddings[i]))
                                           : nlohmann::ordered_json(embeddings[i]);
    data.push_back({{"object", "embedding"}, {"index", i}, {"embedding", std::move(vector)}});
  }
  return {{"object", "list"},
          {"data", std::move(data)},
          {"model", model},
          {"usage", {{"prompt_tokens", prompt_tokens}, {"total_tokens", prompt_tokens}}}};
}

}  // namespace ingot::server
