#pragma once
// Splits a reply into reasoning and content for templates that think
// between tags (Qwen3's <think>...</think>, DeepSeek-R1's, Seed-OSS's
// <seed:think>, MiniMax M3's <mm:think>, Command R7B's <|START_THINKING|>,
// Gemma 4's <|channel>thought ... <channel|>) or in gpt-oss's analysis
// channel. Tags split across tokens are recognised; reasoning never leaks
// into content.

#include <optional>
#include <string>
#include <string_view>

#include "engine/harmony_channels.h"

namespace ingot::engine {

struct ReasoningTags {
  std::string open = "<think>";
  std::string close = "</think>";
  // gpt-oss's harmony channels (see HarmonyChannels) rather than tags.
  bool harmony = false;
};

// The tags a chat template's replies reason between, found in its source;
// nullopt for templates that do not reason.
std::optional<ReasoningTags> reasoning_tags_for_template(std::string_view source);

class ReasoningSplitter {
 public:
  // starts_in_reasoning: the prompt already opened the reasoning block
  // (templates whose generation prompt ends with the open tag).
  ReasoningSplitter(ReasoningTags tags, bool starts_in_reasoning);

  struct Output {
    std::string reasoning;
    std::string content;
  };

  Output push(std::string_view text);
  Output flush();

  // Inside the reasoning block, past its open tag and before its close.
  bool in_reasoning() const {
    return tags_.harmony ? harmony_.in_reasoning() : state_ == State::kInReasoning;
  }
  const ReasoningTags& tags() const { return tags_; }

 private:
  // kAfterReasoning skips the blank lines templates put between the close
  // tag and the answer, however the tokens split them.
  enum class State { kBeforeReasoning, kInReasoning, kAfterReasoning, kInContent };

  void route(Output& out);

  ReasoningTags tags_;
  State state_;
  std::string pending_;
  HarmonyChannels harmony_;
};

}  // namespace ingot::engine
