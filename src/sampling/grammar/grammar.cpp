#include "sampling/grammar/grammar.h"

#include <fmt/format.h>

#include <algorithm>

#include "sampling/grammar/gbnf_text.h"

namespace ingot::sampling::grammar {
namespace {

std::string where(const Rule& rule) {
  if (rule.line == 0) return "";
  return fmt::format("{}:{}: ", rule.line, rule.column);
}

// The elements of the alternative starting at `start`, up to its kEnd.
std::span<const Element> alternative(const std::vector<Element>& elements, uint32_t start) {
  uint32_t end = start;
  while (elements[end].kind != ElementKind::kEnd) ++end;
  return {elements.data() + start, end - start};
}

// A class as GBNF text, spelled by gbnf_text.h as the generators spell it:
// one code point as a literal, more as a class.
std::string class_to_string(const CharClass& set) {
  const auto& ranges = set.ranges();
  if (ranges.size() == 1 && ranges[0].first == ranges[0].second) {
    std::string text;
    append_utf8(text, ranges[0].first);
    return gbnf_literal(text);
  }
  return gbnf_class(CodePointRanges(ranges.begin(), ranges.end()));
}

}  // namespace

Result<std::shared_ptr<const Grammar>> Grammar::build(std::vector<Rule> rules,
                                                      std::vector<Element> elements,
                                                      std::vector<CharClass> classes,
                                                      uint32_t root) {
  std::shared_ptr<Grammar> grammar(new Grammar());
  grammar->rules_ = std::move(rules);
  grammar->elements_ = std::move(elements);
  grammar->classes_ = std::move(classes);
  grammar->root_ = root;
  INGOT_RETURN_IF_ERROR(grammar->check());
  return std::shared_ptr<const Grammar>(std::move(grammar));
}

// Productive: some alternative made only of productive parts, so the rule
// can complete at all. Nullable: some alternative can match "". Found by
// propagation: each alternative counts the references it still waits for,
// and a rule found productive (nullable) counts down the alternatives that
// name it, so the work is linear in the grammar's size (a chain of rules
// each naming the next would take a pass per rule otherwise).
std::pair<std::vector<bool>, std::vector<bool>> Grammar::completion_properties() const {
  struct Alternative {
    uint32_t rule;
    uint32_t waiting_productive = 0;  // references not yet known productive
    uint32_t waiting_nullable = 0;    // references not yet known nullable
    bool all_references = true;       // no terminal: it may match ""
  };
  std::vector<Alternative> alternatives;
  std::vector<std::vector<uint32_t>> named_by(rules_.size());  // rule -> alternatives, per mention
  for (uint32_t id = 0; id < rules_.size(); ++id) {
    for (uint32_t start : rules_[id].alternatives) {
      Alternative a{id};
      for (const Element& e : alternative(elements_, start)) {
        if (e.kind != ElementKind::kRuleRef) {
          a.all_references = false;
          continue;
        }
        ++a.waiting_productive;
        ++a.waiting_nullable;
        named_by[e.value].push_back(uint32_t(alternatives.size()));
      }
      alternatives.push_back(a);
    }
  }
  std::vector<bool> productive(rules_.size(), false), nullable(rules_.size(), false);
  std::vector<std::pair<uint32_t, bool>> found;  // rule, and whether as nullable
  auto mark = [&](uint32_t rule, bool as_nullable) {
    std::vector<bool>& known = as_nullable ? nullable : productive;
    if (known[rule]) return;
    known[rule] = true;
    found.emplace_back(rule, as_nullable);
  };
  for (const Alternative& a : alternatives) {
    if (a.waiting_productive == 0) mark(a.rule, false);
    if (a.all_references && a.waiting_nullable == 0) mark(a.rule, true);
  }
  while (!found.empty()) {
    auto [rule, as_nullable] = found.back();
    found.pop_back();
    for (uint32_t index : named_by[rule]) {
      Alternative& a = alternatives[index];
      if (!as_nullable && --a.waiting_productive == 0) mark(a.rule, false);
      if (as_nullable && --a.waiting_nullable == 0 && a.all_references) mark(a.rule, true);
    }
  }
  return {std::move(productive), std::move(nullable)};
}

Status Grammar::check() const {
  if (root_ >= rules_.size()) return invalid_format("the grammar has no root rule");
  for (const Rule& rule : rules_) {
    if (rule.alternatives.empty())
      return invalid_format(where(rule) + "rule '" + rule.name + "' is empty");
    for (uint32_t start : rule.alternatives) {
      if (start >= elements_.size()) return internal_error("alternative out of range");
      uint32_t p = start;
      for (; p < elements_.size() && elements_[p].kind != ElementKind::kEnd; ++p) {
        const Element& e = elements_[p];
        size_t limit = e.kind == ElementKind::kClass ? classes_.size() : rules_.size();
        if (e.value >= limit) return internal_error("grammar element out of range");
      }
      if (p == elements_.size()) return internal_error("alternative without an end");
    }
  }

  // Only rules a sentence can reach matter.
  std::vector<bool> reachable(rules_.size(), false);
  std::vector<uint32_t> todo = {root_};
  reachable[root_] = true;
  while (!todo.empty()) {
    uint32_t id = todo.back();
    todo.pop_back();
    for (uint32_t start : rules_[id].alternatives) {
      for (const Element& e : alternative(elements_, start)) {
        if (e.kind == ElementKind::kRuleRef && !reachable[e.value]) {
          reachable[e.value] = true;
          todo.push_back(e.value);
        }
      }
    }
  }

  auto [productive, nullable] = completion_properties();
  for (uint32_t id = 0; id < rules_.size(); ++id) {
    if (reachable[id] && !productive[id]) {
      return invalid_format(where(rules_[id]) + "rule '" + rules_[id].name +
                            "' can never complete: every alternative recurses without end");
    }
  }

  // Left recursion: a rule reaching itself before consuming anything would
  // make the matcher expand forever.
  std::vector<std::vector<uint32_t>> left_refs(rules_.size());
  for (uint32_t id = 0; id < rules_.size(); ++id) {
    for (uint32_t start : rules_[id].alternatives) {
      for (const Element& e : alternative(elements_, start)) {
        if (e.kind != ElementKind::kRuleRef) break;
        left_refs[id].push_back(e.value);
        if (!nullable[e.value]) break;
      }
    }
  }
  enum class Mark : uint8_t { kNew, kOnPath, kDone };
  std::vector<Mark> marks(rules_.size(), Mark::kNew);
  std::vector<uint32_t> path;
  // Iterative depth-first search: a deep grammar must not overflow our stack.
  std::vector<std::pair<uint32_t, size_t>> frames;
  for (uint32_t start = 0; start < rules_.size(); ++start) {
    if (!reachable[start] || marks[start] != Mark::kNew) continue;
    frames.emplace_back(start, 0);
    marks[start] = Mark::kOnPath;
    path.push_back(start);
    while (!frames.empty()) {
      auto& [id, next] = frames.back();
      if (next == left_refs[id].size()) {
        marks[id] = Mark::kDone;
        path.pop_back();
        frames.pop_back();
        continue;
      }
      uint32_t to = left_refs[id][next++];
      if (marks[to] == Mark::kOnPath) {
        std::string cycle;
        auto from = std::find(path.begin(), path.end(), to);
        for (auto it = from; it != path.end(); ++it) cycle += rules_[*it].name + " -> ";
        cycle += rules_[to].name;
        return invalid_format(where(rules_[to]) + "rule '" + rules_[to].name +
                              "' is left-recursive (" + cycle + ")");
      }
      if (marks[to] == Mark::kNew) {
        marks[to] = Mark::kOnPath;
        path.push_back(to);
        frames.emplace_back(to, 0);
      }
    }
  }
  return {};
}

std::string Grammar::to_string() const {
  std::string out;
  for (const Rule& rule : rules_) {
    out += rule.name + " ::=";
    for (size_t i = 0; i < rule.alternatives.size(); ++i) {
      if (i > 0) out += " |";
      for (const Element& e : alternative(elements_, rule.alternatives[i])) {
        out += " ";
        out += e.kind == ElementKind::kClass ? class_to_string(classes_[e.value])
                                             : rules_[e.value].name;
      }
    }
    out += "\n";
  }
  return out;
}

}  // namespace ingot::sampling::grammar
