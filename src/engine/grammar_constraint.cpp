#include "engine/grammar_constraint.h"

#include <algorithm>

namespace ingot::engine {

GrammarConstraint::GrammarConstraint(std::shared_ptr<const sampling::grammar::Grammar> grammar,
                                     std::vector<std::string> triggers,
                                     sampling::grammar::TokenMasker& masker)
    : grammar_(std::move(grammar)), triggers_(std::move(triggers)), masker_(masker) {
  std::erase_if(triggers_, [](const std::string& t) { return t.empty(); });
  for (const std::string& t : triggers_) longest_trigger_ = std::max(longest_trigger_, t.size());
  if (triggers_.empty()) matcher_.emplace(grammar_);
}

Status GrammarConstraint::mask(std::span<float> logits) {
  if (!matcher_) return {};
  last_mask_ = masker_.mask(*matcher_);
  if (last_mask_->none()) {
    return invalid_argument(
        "the grammar allows no next token here (it cannot continue from the text so far)");
  }
  last_mask_->apply(logits);
  return {};
}

Status GrammarConstraint::accept(int32_t token, std::string_view piece) {
  if (!matcher_) return arm_if_triggered(piece);
  // A mask holds for the one token drawn after it; a token the engine
  // forces (a reasoning budget's close tag) was drawn without one.
  std::shared_ptr<const sampling::grammar::TokenMask> mask = std::move(last_mask_);
  last_mask_.reset();
  if (mask && !mask->allows(token)) {
    return internal_error("a token outside the grammar's mask was sampled");
  }
  if (!matcher_->accept_bytes(piece))
    return internal_error("the grammar refused a token its mask allowed");
  return {};
}

Status GrammarConstraint::arm_if_triggered(std::string_view piece) {
  recent_.append(piece);
  size_t earliest = std::string::npos;
  for (const std::string& trigger : triggers_) earliest = std::min(earliest, recent_.find(trigger));
  if (earliest == std::string::npos) {
    // Keep only what a trigger could still start in.
    if (recent_.size() >= longest_trigger_)
      recent_.erase(0, recent_.size() - (longest_trigger_ - 1));
    return {};
  }
  matcher_.emplace(grammar_);
  std::string_view sentence = std::string_view(recent_).substr(earliest);
  if (!matcher_->accept_bytes(sentence)) {
    return invalid_argument("the text after the grammar's trigger does not match the grammar");
  }
  recent_.clear();
  return {};
}

}  // namespace ingot::engine
