#pragma once
// The rules of a grammar being generated: unique names derived from hints
// (schema paths, tool names), one rule per distinct body (a body generated
// twice gets the first rule's name), and the JSON primitives added on
// first use. Prints the grammar as GBNF text.

#include <cstddef>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "sampling/grammar/json_primitives.h"

namespace ingot::sampling::grammar {

class GbnfRuleSet {
 public:
  GbnfRuleSet();

  // A rule with `body`: the existing one when the body was seen before (or
  // is itself just a rule name), else a new rule named after `hint`.
  std::string intern(std::string_view hint, std::string body);

  // A fresh name for a rule defined later with define() (a recursive
  // reference needs its name before its body exists). The rule prints at
  // the place it was reserved.
  std::string reserve(std::string_view hint);
  void define(const std::string& name, std::string body);

  // The JSON primitive `name` (json_rule::k...), added with what it needs.
  std::string use_primitive(std::string_view name);
  // Fixed-name rules (string formats); the first rule's name.
  std::string use_fixed(const std::vector<GbnfRule>& rules);

  // Sets `name` to `body` as given, replacing a rule of that name.
  void set_raw(std::string name, std::string body);

  // Total size of all bodies so far, to bound hostile schemas.
  size_t text_size() const { return text_size_; }

  // `root ::= root_body`, then every rule in the order it was added.
  std::string text(std::string_view root_body) const;

 private:
  void put(const std::string& name, std::string body);

  std::vector<GbnfRule> rules_;
  std::map<std::string, size_t, std::less<>> index_by_name_;
  std::map<std::string, std::string, std::less<>> name_by_body_;
  std::set<std::string, std::less<>> taken_;
  std::map<std::string, uint64_t, std::less<>> next_suffix_;  // the last suffix given per base
  size_t text_size_ = 0;
};

}  // namespace ingot::sampling::grammar
