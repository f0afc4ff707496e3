#include "sampling/grammar/gbnf_parser.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>
#include <unordered_map>
#include <unordered_set>

#include "sampling/grammar/grammar_matcher.h"
#include "sampling/grammar/utf8.h"

namespace ingot::sampling::grammar {
namespace {

using Sequence = std::vector<Element>;

// Groups recurse in the parser; this keeps hostile input off the C++ stack's end.
constexpr int kMaxNesting = 256;

bool is_name_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '-';
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// A rule while its definition is being read. Rules made for groups and
// repetitions are "synthetic" and named after the rule they came from.
struct PendingRule {
  std::string name;
  std::vector<Sequence> alternatives;
  bool defined = false;
  bool synthetic = false;
  size_t offset = 0;  // definition, or first reference while undefined
};

class GbnfParser {
 public:
  GbnfParser(std::string_view text, const std::atomic<bool>* cancelled)
      : text_(text), cancelled_(cancelled) {}

  Result<std::shared_ptr<const Grammar>> parse(std::string_view root) {
    try {
      parse_rules();
      stop_if_cancelled();
      auto grammar = finish(root);
      stop_if_cancelled();
      return grammar;
    } catch (const ErrorException& e) {
      return e.error();
    }
  }

 private:
  [[noreturn]] void fail(size_t offset, std::string_view reason) const {
    auto [line, column] = line_column(offset);
    throw ErrorException(invalid_format(fmt::format("{}:{}: {}", line, column, reason)));
  }

  std::pair<uint32_t, uint32_t> line_column(size_t offset) const {
    return line_columns({offset}).front();
  }

  // The line and column of each offset, in one pass over the text however
  // many there are (a grammar of many rules asks for each rule's).
  std::vector<std::pair<uint32_t, uint32_t>> line_columns(
      const std::vector<size_t>& offsets) const {
    std::vector<size_t> order(offsets.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::sort(order.begin(), order.end(),
              [&](size_t a, size_t b) { return offsets[a] < offsets[b]; });
    std::vector<std::pair<uint32_t, uint32_t>> out(offsets.size());
    uint32_t line = 1, column = 1;
    size_t i = 0;
    for (size_t k : order) {
      for (; i < offsets[k] && i < text_.size(); ++i) {
        if (text_[i] == '\n') {
          ++line;
          column = 1;
        } else if ((static_cast<uint8_t>(text_[i]) & 0xC0) != 0x80) {
          ++column;
        }
      }
      out[k] = {line, column};
    }
    return out;
  }

  bool at_end() const { return pos_ >= text_.size(); }
  char peek(size_t ahead = 0) const {
    return pos_ + ahead < text_.size() ? text_[pos_ + ahead] : '\0';
  }

  void skip_space() {
    while (!at_end()) {
      char c = peek();
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
        ++pos_;
      } else if (c == '#') {
        while (!at_end() && peek() != '\n') ++pos_;
      } else {
        break;
      }
    }
  }

  std::string_view parse_name() {
    size_t start = pos_;
    while (!at_end() && is_name_char(peek())) ++pos_;
    return text_.substr(start, pos_ - start);
  }

  // Whether a rule definition `name ::=` starts here (ending the previous rule).
  bool at_definition() {
    size_t saved = pos_;
    bool definition = !parse_name().empty() && (skip_space(), text_.substr(pos_, 3) == "::=");
    pos_ = saved;
    return definition;
  }

  void stop_if_cancelled() const {
    if (cancelled_ && cancelled_->load(std::memory_order_relaxed))
      throw ErrorException(Error(ErrorKind::kCancelled, "the grammar's compile was stopped"));
  }

  void parse_rules() {
    skip_space();
    while (!at_end()) {
      stop_if_cancelled();
      size_t start = pos_;
      std::string_view name = parse_name();
      if (name.empty()) fail(pos_, "expected a rule name");
      skip_space();
      if (text_.substr(pos_, 3) != "::=")
        fail(pos_, fmt::format("expected '::=' after rule name '{}'", name));
      pos_ += 3;
      uint32_t id = rule_id(name, start);
      if (rules_[id].defined) fail(start, fmt::format("rule '{}' is defined twice", name));
      rules_[id].defined = true;
      rules_[id].offset = start;
      current_rule_ = id;
      auto alternatives = parse_alternatives(false, start);
      rules_[id].alternatives = std::move(alternatives);
      skip_space();
    }
  }

  uint32_t rule_id(std::string_view name, size_t offset) {
    auto it = ids_.find(std::string(name));
    if (it != ids_.end()) return it->second;
    auto id = static_cast<uint32_t>(rules_.size());
    rules_.push_back({std::string(name), {}, false, false, offset});
    ids_.emplace(std::string(name), id);
    return id;
  }

  uint32_t synthetic_rule(std::vector<Sequence> alternatives, size_t offset) {
    auto id = static_cast<uint32_t>(rules_.size());
    rules_.push_back({rules_[current_rule_].name, std::move(alternatives), true, true, offset});
    for (const Sequence& s : rules_.back().alternatives) count_elements(offset, s.size() + 1);
    return id;
  }

  void count_elements(size_t offset, size_t n) {
    element_count_ += n;
    if (element_count_ > kMaxGrammarElements) {
      fail(offset,
           fmt::format(
               "the grammar is too large (more than {} elements once repetitions are expanded)",
               kMaxGrammarElements));
    }
  }

  std::vector<Sequence> parse_alternatives(bool nested, size_t open) {
    std::vector<Sequence> alternatives;
    alternatives.push_back(parse_sequence(nested, open));
    while (peek() == '|') {
      ++pos_;
      alternatives.push_back(parse_sequence(nested, open));
    }
    return alternatives;
  }

  Sequence parse_sequence(bool nested, size_t open) {
    Sequence sequence;
    for (;;) {
      skip_space();
      if (at_end()) {
        if (nested) fail(open, "unclosed '('");
        return sequence;
      }
      char c = peek();
      if (c == '|') return sequence;
      if (c == ')') {
        if (!nested) fail(pos_, "unexpected ')'");
        return sequence;
      }
      if (!nested && is_name_char(c) && at_definition()) return sequence;
      size_t item_start = pos_;
      Sequence item = parse_item();
      skip_space_same_item();
      if (peek() == '*' || peek() == '+' || peek() == '?' || peek() == '{') {
        item = parse_repetition(std::move(item), item_start);
      }
      count_elements(item_start, item.size());
      sequence.insert(sequence.end(), item.begin(), item.end());
    }
  }

  // Postfix operators may be separated from their item by spaces, not lines.
  void skip_space_same_item() {
    while (peek() == ' ' || peek() == '\t') ++pos_;
  }

  Sequence parse_item() {
    char c = peek();
    size_t start = pos_;
    if (c == '"') return parse_literal();
    if (c == '[') return {class_element(parse_class())};
    if (c == '.') {
      ++pos_;
      return {class_element(CharClass::any())};
    }
    if (c == '(') {
      if (++depth_ > kMaxNesting)
        fail(start, fmt::format("groups nested deeper than {}", kMaxNesting));
      ++pos_;
      auto alternatives = parse_alternatives(true, start);
      if (peek() != ')') fail(start, "unclosed '('");
      ++pos_;
      --depth_;
      return {ref(synthetic_rule(std::move(alternatives), start))};
    }
    if (is_name_char(c)) return {ref(rule_id(parse_name(), start))};
    if (c == '<') fail(pos_, "token references (<...>) are not supported");
    fail(pos_, fmt::format("unexpected character '{}'", c));
  }

  Element ref(uint32_t rule) const { return {ElementKind::kRuleRef, rule}; }

  Element class_element(CharClass set) {
    auto key = set.ranges();
    auto [it, inserted] = class_ids_.emplace(key, static_cast<uint32_t>(classes_.size()));
    if (inserted) classes_.push_back(std::move(set));
    return {ElementKind::kClass, it->second};
  }

  Sequence parse_literal() {
    size_t open = pos_++;
    Sequence out;
    for (;;) {
      if (at_end()) fail(open, "unterminated string literal");
      if (peek() == '"') {
        ++pos_;
        return out;
      }
      if (peek() == '\n') fail(pos_, "newline inside a string literal (write \\n)");
      char32_t c = parse_char();
      out.push_back(class_element(CharClass::single(c)));
    }
  }

  CharClass parse_class() {
    size_t open = pos_++;
    bool negated = peek() == '^';
    if (negated) ++pos_;
    std::vector<std::pair<char32_t, char32_t>> ranges;
    for (;;) {
      if (at_end()) fail(open, "unterminated character class");
      if (peek() == ']') {
        ++pos_;
        break;
      }
      char32_t first = parse_char();
      char32_t last = first;
      if (peek() == '-' && peek(1) != ']' && pos_ + 1 < text_.size()) {
        ++pos_;
        size_t at = pos_;
        last = parse_char();
        if (last < first) fail(at, "character range is backwards");
      }
      ranges.emplace_back(first, last);
    }
    if (ranges.empty()) fail(open, "empty character class");
    CharClass set = CharClass::of(std::move(ranges), negated);
    if (set.empty()) fail(open, "character class matches nothing");
    return set;
  }

  // One character of a literal or class, escapes resolved.
  char32_t parse_char() {
    size_t start = pos_;
    if (peek() != '\\') {
      char32_t c;
      if (!decode_utf8(text_, pos_, c)) fail(start, "invalid UTF-8");
      return c;
    }
    ++pos_;
    if (at_end()) fail(start, "incomplete escape");
    char e = text_[pos_++];
    switch (e) {
      case 'n':
        return '\n';
      case 't':
        return '\t';
      case 'r':
        return '\r';
      case '0':
        return 0;
      case '\\':
      case '"':
      case '\'':
      case '[':
      case ']':
      case '-':
      case '^':
      case '/':
      case '.':
        return static_cast<char32_t>(e);
      case 'x':
        return parse_hex(start, 2);
      case 'u':
        return parse_hex(start, 4);
      case 'U':
        return parse_hex(start, 8);
      default:
        fail(start, fmt::format("unknown escape '\\{}'", e));
    }
  }

  char32_t parse_hex(size_t start, int digits) {
    uint32_t value = 0;
    for (int i = 0; i < digits; ++i) {
      int h = hex_value(peek());
      if (h < 0) fail(start, fmt::format("escape needs {} hex digits", digits));
      value = value * 16 + static_cast<uint32_t>(h);
      ++pos_;
    }
    if (value > kMaxCodePoint || (value >= 0xD800 && value <= 0xDFFF)) {
      fail(start, "escape is not a valid code point");
    }
    return value;
  }

  Sequence parse_repetition(Sequence item, size_t item_start) {
    size_t op = pos_;
    uint32_t min = 0;
    std::optional<uint32_t> max;
    switch (text_[pos_++]) {
      case '*':
        break;
      case '+':
        min = 1;
        break;
      case '?':
        max = 1;
        break;
      default:
        parse_counts(op, min, max);
        break;
    }
    if (item.empty()) return item;  // repeating "" is ""
    if (item.size() > 1) item = {ref(synthetic_rule({item}, item_start))};
    Sequence out;
    for (uint32_t i = 0; i < min; ++i) {
      count_elements(op, 1);
      out.push_back(item[0]);
    }
    if (!max) {
      // R ::= item R | ""
      auto id = static_cast<uint32_t>(rules_.size());
      synthetic_rule({{item[0], ref(id)}, {}}, op);
      out.push_back(ref(id));
    } else if (*max > min) {
      // Nested optionals: R1 ::= item | "", Rk ::= item Rk-1 | "".
      std::optional<uint32_t> inner;
      for (uint32_t i = min; i < *max; ++i) {
        Sequence first = {item[0]};
        if (inner) first.push_back(ref(*inner));
        inner = synthetic_rule({first, {}}, op);
      }
      out.push_back(ref(*inner));
    }
    return out;
  }

  void parse_counts(size_t op, uint32_t& min, std::optional<uint32_t>& max) {
    skip_space_same_item();
    auto number = [&]() -> std::optional<uint32_t> {
      skip_space_same_item();
      if (peek() < '0' || peek() > '9') return std::nullopt;
      uint64_t value = 0;
      while (peek() >= '0' && peek() <= '9') {
        value = value * 10 + static_cast<uint64_t>(peek() - '0');
        if (value > kMaxRepetitionCount)
          fail(op, fmt::format("repetition count above {}", kMaxRepetitionCount));
        ++pos_;
      }
      skip_space_same_item();
      return static_cast<uint32_t>(value);
    };
    auto low = number();
    if (peek() == '}') {
      if (!low) fail(op, "expected a number in '{}'");
      ++pos_;
      min = *low;
      max = *low;
      return;
    }
    if (peek() != ',') fail(pos_, "expected ',' or '}' in repetition");
    ++pos_;
    auto high = number();
    if (peek() != '}') fail(pos_, "expected '}' to close the repetition");
    ++pos_;
    min = low.value_or(0);
    max = high;
    if (max && *max < min) fail(op, "repetition maximum is below its minimum");
  }

  Result<std::shared_ptr<const Grammar>> finish(std::string_view root) {
    for (const PendingRule& rule : rules_) {
      if (!rule.defined) fail(rule.offset, fmt::format("undefined rule '{}'", rule.name));
    }
    auto root_id = ids_.find(std::string(root));
    if (root_id == ids_.end()) fail(0, fmt::format("no rule named '{}'", root));

    std::unordered_set<std::string> taken;
    for (const PendingRule& rule : rules_) {
      if (!rule.synthetic) taken.insert(rule.name);
    }
    std::unordered_map<std::string, int> counters;
    std::vector<Rule> rules;
    std::vector<Element> elements;
    std::vector<size_t> offsets;
    for (const PendingRule& pending : rules_) offsets.push_back(pending.offset);
    const std::vector<std::pair<uint32_t, uint32_t>> places = line_columns(offsets);
    for (size_t index = 0; index < rules_.size(); ++index) {
      const PendingRule& pending = rules_[index];
      Rule rule;
      rule.name = pending.name;
      while (pending.synthetic && !taken.insert(rule.name).second) {
        rule.name = fmt::format("{}-{}", pending.name, ++counters[pending.name]);
      }
      auto [line, column] = places[index];
      rule.line = line;
      rule.column = column;
      for (const Sequence& s : pending.alternatives) {
        rule.alternatives.push_back(static_cast<uint32_t>(elements.size()));
        elements.insert(elements.end(), s.begin(), s.end());
        elements.push_back({ElementKind::kEnd, 0});
      }
      rules.push_back(std::move(rule));
    }
    return Grammar::build(std::move(rules), std::move(elements), std::move(classes_),
                          root_id->second);
  }

  std::string_view text_;
  size_t pos_ = 0;
  std::vector<PendingRule> rules_;
  std::unordered_map<std::string, uint32_t> ids_;
  uint32_t current_rule_ = 0;
  std::vector<CharClass> classes_;
  std::map<std::vector<std::pair<char32_t, char32_t>>, uint32_t> class_ids_;
  size_t element_count_ = 0;
  int depth_ = 0;
  const std::atomic<bool>* cancelled_;
};

}  // namespace

Result<std::shared_ptr<const Grammar>> parse_gbnf(std::string_view text, std::string_view root,
                                                  const std::atomic<bool>* cancelled) {
  INGOT_ASSIGN_OR_RETURN(auto grammar, GbnfParser(text, cancelled).parse(root));
  std::vector<Stack> start;
  if (!initial_stacks(*grammar, start)) {
    return invalid_format(
        "the grammar is too ambiguous: its start alone exceeds the matcher's bounds");
  }
  return grammar;
}

}  // namespace ingot::sampling::grammar
