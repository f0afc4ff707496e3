#pragma once
// A compiled grammar: every rule is a list of alternatives, every
// alternative a run of elements in one flat array ending with kEnd. An
// element matches one code point (a character class) or a whole rule. A
// position in a sentence is an index into that array, so a pushdown stack
// is just a vector of indices. Repetition, grouping and literals have been
// lowered to these two element kinds by the parser. Immutable once built,
// so one grammar serves any number of threads and matchers.

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sampling/grammar/char_class.h"
#include "util/status.h"

namespace ingot::sampling::grammar {

enum class ElementKind : uint8_t {
  kEnd,      // the alternative is complete: return to the rule's caller
  kClass,    // one code point from char_class(value)
  kRuleRef,  // a sentence of rule(value)
};

struct Element {
  ElementKind kind;
  uint32_t value;
};

struct Rule {
  std::string name;
  std::vector<uint32_t> alternatives;  // positions of each alternative's first element
  uint32_t line = 0;                   // where the source defines it (1-based; 0: unknown)
  uint32_t column = 0;
};

class Grammar {
 public:
  // Validates the pieces: references in range, no left recursion, every
  // rule able to complete. `where` of a rule is used in errors.
  static Result<std::shared_ptr<const Grammar>> build(std::vector<Rule> rules,
                                                      std::vector<Element> elements,
                                                      std::vector<CharClass> classes,
                                                      uint32_t root);

  const Element& element(uint32_t position) const { return elements_[position]; }
  const Rule& rule(uint32_t id) const { return rules_[id]; }
  const CharClass& char_class(uint32_t id) const { return classes_[id]; }
  uint32_t root() const { return root_; }
  size_t rule_count() const { return rules_.size(); }
  size_t element_count() const { return elements_.size(); }

  // The grammar in GBNF, one line per rule (for logs and tests).
  std::string to_string() const;

 private:
  Grammar() = default;
  Status check() const;
  // Per rule: whether it can complete (productive), whether it can match "".
  std::pair<std::vector<bool>, std::vector<bool>> completion_properties() const;

  std::vector<Rule> rules_;
  std::vector<Element> elements_;
  std::vector<CharClass> classes_;
  uint32_t root_ = 0;
};

}  // namespace ingot::sampling::grammar
