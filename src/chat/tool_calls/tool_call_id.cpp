#include "chat/tool_calls/tool_call_id.h"

#include <string_view>

namespace ingot::chat::tool_calls {

ToolCallIdStyle id_style_for(ToolCallFamily family) {
  bool mistral =
      family == ToolCallFamily::kMistralArray || family == ToolCallFamily::kMistralTagged;
  return mistral ? ToolCallIdStyle::kMistral : ToolCallIdStyle::kOpenAI;
}

ToolCallIdGenerator::ToolCallIdGenerator(uint64_t seed, ToolCallIdStyle style)
    : rng_(seed), style_(style) {}

ToolCallIdGenerator ToolCallIdGenerator::unseeded(ToolCallIdStyle style) {
  std::random_device device;
  uint64_t seed = (uint64_t{device()} << 32) ^ device();
  return ToolCallIdGenerator(seed, style);
}

std::string ToolCallIdGenerator::next() {
  static constexpr std::string_view kAlphabet =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  const bool mistral = style_ == ToolCallIdStyle::kMistral;
  std::string id = mistral ? "" : style_ == ToolCallIdStyle::kOpenAI ? "call_" : "toolu_";
  const size_t count = mistral ? 9 : 24;
  for (size_t i = 0; i < count; ++i) id += kAlphabet[rng_() % kAlphabet.size()];
  return id;
}

}  // namespace ingot::chat::tool_calls
