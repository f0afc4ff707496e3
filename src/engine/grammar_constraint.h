#pragma once
// The grammar side of one generation: arms the grammar (at once, or when
// a trigger string appears in the text), masks each row of logits to the
// tokens the grammar allows, and advances over every chosen token.

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "sampling/grammar/grammar_matcher.h"
#include "sampling/grammar/token_masker.h"
#include "util/status.h"

namespace ingot::engine {

class GrammarConstraint {
 public:
  GrammarConstraint(std::shared_ptr<const sampling::grammar::Grammar> grammar,
                    std::vector<std::string> triggers, sampling::grammar::TokenMasker& masker);

  bool armed() const { return matcher_.has_value(); }
  // Sets disallowed logits to -inf; nothing while unarmed. An error when
  // the grammar allows no token at all (it cannot continue).
  Status mask(std::span<float> logits);
  // Advances over the chosen token's bytes (or, unarmed, looks for a
  // trigger in them). An error when the token breaks the grammar, or was
  // drawn outside the mask last computed (a token forced without a mask
  // is checked by its bytes alone).
  Status accept(int32_t token, std::string_view piece);
  // The sentence is complete and nothing may follow.
  bool must_end() const { return matcher_ && matcher_->must_end(); }

 private:
  Status arm_if_triggered(std::string_view piece);

  std::shared_ptr<const sampling::grammar::Grammar> grammar_;
  std::vector<std::string> triggers_;
  sampling::grammar::TokenMasker& masker_;
  std::optional<sampling::grammar::GrammarMatcher> matcher_;
  std::shared_ptr<const sampling::grammar::TokenMask> last_mask_;
  std::string recent_;  // unarmed: the text's tail a trigger may start in
  size_t longest_trigger_ = 0;
};

}  // namespace ingot::engine
