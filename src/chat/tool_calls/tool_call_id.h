#pragma once
// Tool-call ids. OpenAI's look like call_ followed by 24 letters and digits,
// Anthropic's toolu_ and 24; Mistral's templates insist on exactly 9
// letters and digits. Seeded, so
// that a streamed reply and a whole reply with the same seed name their
// calls alike.

#include <cstdint>
#include <random>
#include <string>

#include "chat/tool_calls/tool_call_family.h"

namespace ingot::chat::tool_calls {

enum class ToolCallIdStyle {
  kOpenAI,     // call_ + 24 alphanumerics
  kMistral,    // 9 alphanumerics
  kAnthropic,  // toolu_ + 24 alphanumerics
};

ToolCallIdStyle id_style_for(ToolCallFamily family);

class ToolCallIdGenerator {
 public:
  explicit ToolCallIdGenerator(uint64_t seed, ToolCallIdStyle style = ToolCallIdStyle::kOpenAI);

  // A generator seeded from std::random_device.
  static ToolCallIdGenerator unseeded(ToolCallIdStyle style = ToolCallIdStyle::kOpenAI);

  std::string next();

 private:
  std::mt19937_64 rng_;
  ToolCallIdStyle style_;
};

}  // namespace ingot::chat::tool_calls
