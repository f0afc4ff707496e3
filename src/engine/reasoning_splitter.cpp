#include "engine/reasoning_splitter.h"

#include <algorithm>

namespace ingot::engine {
namespace {

// The length of the longest suffix of `text` that is a proper prefix of `tag`.
size_t partial_tag_suffix(std::string_view text, std::string_view tag) {
  size_t max_len = std::min(tag.size() - 1, text.size());
  for (size_t len = max_len; len > 0; --len) {
    if (text.substr(text.size() - len) == tag.substr(0, len)) return len;
  }
  return 0;
}

bool is_blank(std::string_view text) {
  return std::all_of(text.begin(), text.end(),
                     [](char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; });
}

}  // namespace

std::optional<ReasoningTags> reasoning_tags_for_template(std::string_view source) {
  auto has = [&](std::string_view text) { return source.find(text) != std::string_view::npos; };
  if (has("<think>") && has("</think>")) return ReasoningTags{};
  // Other families' own tags: Seed-OSS, MiniMax M3, Command R7B.
  for (auto [open, close] :
       {std::pair<std::string_view, std::string_view>{"<seed:think>", "</seed:think>"},
        {"<mm:think>", "</mm:think>"},
        {"<|START_THINKING|>", "<|END_THINKING|>"}}) {
    if (has(open) && has(close)) return ReasoningTags{std::string(open), std::string(close)};
  }
  // Gemma 4 thinks in its "thought" channel; its templates also render an
  // empty one after the generation prompt to turn thinking off.
  if (has("<|channel>thought") && has("<channel|>")) {
    return ReasoningTags{"<|channel>thought", "<channel|>"};
  }
  if (has("<|channel|>analysis<|message|>") && has("<|start|>assistant")) {
    return ReasoningTags{"<|channel|>analysis<|message|>", std::string(kHarmonyReasoningClose),
                         /*harmony=*/true};
  }
  return std::nullopt;
}

ReasoningSplitter::ReasoningSplitter(ReasoningTags tags, bool starts_in_reasoning)
    : tags_(std::move(tags)),
      state_(starts_in_reasoning ? State::kInReasoning : State::kBeforeReasoning) {}

ReasoningSplitter::Output ReasoningSplitter::push(std::string_view text) {
  Output out;
  if (tags_.harmony) {
    HarmonyChannels::Output channels;
    harmony_.push(text, channels);
    return Output{std::move(channels.reasoning), std::move(channels.content)};
  }
  pending_.append(text);
  route(out);
  return out;
}

void ReasoningSplitter::route(Output& out) {
  for (;;) {
    if (state_ == State::kInContent) {
      out.content += pending_;
      pending_.clear();
      return;
    }
    if (state_ == State::kAfterReasoning) {
      size_t start = pending_.find_first_not_of(" \n\r\t");
      if (start == std::string::npos) {
        pending_.clear();
        return;
      }
      pending_.erase(0, start);
      state_ = State::kInContent;
      continue;
    }
    if (state_ == State::kBeforeReasoning) {
      // Only leading whitespace may come before the open tag; anything else
      // means the model is not reasoning this time.
      size_t start = pending_.find_first_not_of(" \n\r\t");
      if (start == std::string::npos) return;  // all blank so far: wait
      std::string_view rest = std::string_view(pending_).substr(start);
      if (rest.starts_with(tags_.open)) {
        pending_.erase(0, start + tags_.open.size());
        state_ = State::kInReasoning;
        continue;
      }
      // A close alone: the reasoning was left empty (MiniMax M3 writes
      // that when it does not think).
      if (rest.starts_with(tags_.close)) {
        pending_.erase(0, start + tags_.close.size());
        state_ = State::kAfterReasoning;
        continue;
      }
      if (std::string_view(tags_.open).starts_with(rest) ||
          std::string_view(tags_.close).starts_with(rest)) {
        return;  // could still be a tag
      }
      state_ = State::kInContent;
      continue;
    }
    // In reasoning: emit up to the close tag, holding back a partial tag.
    size_t close = pending_.find(tags_.close);
    if (close != std::string::npos) {
      out.reasoning += pending_.substr(0, close);
      pending_.erase(0, close + tags_.close.size());
      state_ = State::kAfterReasoning;
      continue;
    }
    size_t keep = partial_tag_suffix(pending_, tags_.close);
    out.reasoning += pending_.substr(0, pending_.size() - keep);
    pending_.erase(0, pending_.size() - keep);
    return;
  }
}

ReasoningSplitter::Output ReasoningSplitter::flush() {
  Output out;
  if (tags_.harmony) {
    HarmonyChannels::Output channels;
    harmony_.flush(channels);
    return Output{std::move(channels.reasoning), std::move(channels.content)};
  }
  if (state_ == State::kInReasoning) {
    out.reasoning = std::move(pending_);
  } else if (state_ == State::kInContent || !is_blank(pending_)) {
    out.content = std::move(pending_);
  }
  pending_.clear();
  return out;
}

}  // namespace ingot::engine
