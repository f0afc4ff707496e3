#include "sampling/grammar/gbnf_rule_set.h"

#include "sampling/grammar/gbnf_text.h"

namespace ingot::sampling::grammar {
namespace {

// Names grow with the schema path; the tail says the most about a rule.
constexpr size_t kMaxNameLength = 60;

bool is_rule_name(std::string_view text) {
  if (text.empty()) return false;
  for (char ch : text) {
    bool word = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
                ch == '-';
    if (!word) return false;
  }
  return true;
}

}  // namespace

GbnfRuleSet::GbnfRuleSet() {
  taken_.insert("root");
  for (std::string_view name : json_primitive_names()) taken_.insert(std::string(name));
}

std::string GbnfRuleSet::intern(std::string_view hint, std::string body) {
  if (is_rule_name(body) && taken_.count(body) > 0) return body;
  if (auto found = name_by_body_.find(body); found != name_by_body_.end()) return found->second;
  std::string name = reserve(hint);
  name_by_body_[body] = name;
  define(name, std::move(body));
  return name;
}

std::string GbnfRuleSet::reserve(std::string_view hint) {
  std::string base = gbnf_rule_name(hint);
  if (base.size() > kMaxNameLength) {
    base = base.substr(base.size() - kMaxNameLength);
    while (!base.empty() && base.front() == '-') base.erase(0, 1);
  }
  if (base.rfind("format-", 0) == 0) base = "s-" + base;  // format rules are added by fixed name
  // Suffixes go on from the last one given to `base`, so that many rules of
  // one hint do not each search from the start.
  std::string name = base;
  uint64_t& suffix = next_suffix_.try_emplace(base, 1).first->second;
  while (taken_.count(name) > 0) name = base + "-" + std::to_string(++suffix);
  taken_.insert(name);
  put(name, "");  // holds the rule's place: parents print before their parts
  return name;
}

void GbnfRuleSet::define(const std::string& name, std::string body) {
  text_size_ += body.size();
  rules_[index_by_name_.at(name)].body = std::move(body);
}

std::string GbnfRuleSet::use_primitive(std::string_view name) {
  for (GbnfRule& rule : json_primitive_rules(name)) {
    if (index_by_name_.count(rule.name) == 0) put(rule.name, std::move(rule.body));
  }
  return std::string(name);
}

std::string GbnfRuleSet::use_fixed(const std::vector<GbnfRule>& rules) {
  for (const GbnfRule& rule : rules) {
    if (index_by_name_.count(rule.name) > 0) continue;
    taken_.insert(rule.name);
    put(rule.name, rule.body);
  }
  return rules.empty() ? std::string() : rules.front().name;
}

void GbnfRuleSet::set_raw(std::string name, std::string body) {
  taken_.insert(name);
  if (auto found = index_by_name_.find(name); found != index_by_name_.end()) {
    text_size_ += body.size();
    rules_[found->second].body = std::move(body);
    return;
  }
  put(name, std::move(body));
}

void GbnfRuleSet::put(const std::string& name, std::string body) {
  text_size_ += name.size() + body.size();
  index_by_name_[name] = rules_.size();
  rules_.push_back({name, std::move(body)});
}

std::string GbnfRuleSet::text(std::string_view root_body) const {
  std::string out = "root ::= " + std::string(root_body) + "\n";
  for (const GbnfRule& rule : rules_) {
    if (!rule.body.empty()) out += rule.name + " ::= " + rule.body + "\n";  // empty: never defined
  }
  return out;
}

}  // namespace ingot::sampling::grammar
