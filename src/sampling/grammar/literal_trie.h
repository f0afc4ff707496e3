#pragma once
// Many literal alternatives (a long `enum`) as one prefix tree: values that
// start alike share that start, so the matcher opens one stack per distinct
// next character rather than one per value, and the grammar grows with the
// values' total length. Identical subtrees (the digits under "v1" and
// under "v2") share one rule.

#include <string>
#include <string_view>
#include <vector>

#include "sampling/grammar/gbnf_rule_set.h"

namespace ingot::sampling::grammar {

// A GBNF body matching exactly the `texts` (at least one; each non-empty,
// valid UTF-8); its branch points are rules in `rules` named after `hint`.
std::string literal_trie_body(std::vector<std::string> texts, GbnfRuleSet& rules,
                              std::string_view hint);

}  // namespace ingot::sampling::grammar
