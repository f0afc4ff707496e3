#include "sampling/grammar/regex_gbnf.h"

#include <optional>
#include <vector>

#include "sampling/grammar/gbnf_text.h"

namespace ingot::sampling::grammar {
namespace {

const CodePointRanges kDigit = {{'0', '9'}};
const CodePointRanges kWord = {{'0', '9'}, {'A', 'Z'}, {'_', '_'}, {'a', 'z'}};
// ECMA-262 WhiteSpace and LineTerminator.
const CodePointRanges kSpace = {
    {0x09, 0x0D},     {0x20, 0x20},     {0xA0, 0xA0},     {0x1680, 0x1680}, {0x2000, 0x200A},
    {0x2028, 0x2029}, {0x202F, 0x202F}, {0x205F, 0x205F}, {0x3000, 0x3000}, {0xFEFF, 0xFEFF}};
const CodePointRanges kLineTerminators = {{'\n', '\n'}, {'\r', '\r'}, {0x2028, 0x2029}};

// One translated regex term: GBNF text, and whether it is one element
// that a quantifier can follow as is.
struct Term {
  std::string gbnf;
  bool single_element = true;
  std::optional<std::string> literal;  // encoded text when the term is one character
};

std::string element(const Term& term) {
  return term.single_element ? term.gbnf : "( " + term.gbnf + " )";
}

// A character as it appears inside a JSON string.
std::string json_encoded(char32_t c) {
  switch (c) {
    case '"':
      return "\\\"";
    case '\\':
      return "\\\\";
    case '\b':
      return "\\b";
    case '\f':
      return "\\f";
    case '\n':
      return "\\n";
    case '\r':
      return "\\r";
    case '\t':
      return "\\t";
    default:
      break;
  }
  std::string out;
  if (c < 0x20) {
    static constexpr char kHex[] = "0123456789abcdef";
    out = "\\u00";
    out += kHex[c >> 4];
    out += kHex[c & 15];
  } else {
    append_utf8(out, c);
  }
  return out;
}

class RegexTranslator {
 public:
  RegexTranslator(std::u32string pattern, std::string_view any_char_rule)
      : pattern_(std::move(pattern)), any_char_rule_(any_char_rule) {}

  std::string translate() {
    std::vector<std::string> alternatives;
    bool has_empty = false;
    while (true) {
      bool start_anchored = consume('^');
      std::string sequence = parse_sequence(/*top_level=*/true);
      bool end_anchored = consume('$');
      std::string any = any_char_rule_ + "*";
      std::string full = sequence;
      if (!start_anchored) full = any + (full.empty() ? "" : " " + full);
      bool any_already_last = !start_anchored && sequence.empty();
      if (!end_anchored && !any_already_last) append_separated(full, " ", any);
      if (full.empty()) {
        has_empty = true;
      } else {
        alternatives.push_back(full);
      }
      if (at_end()) break;
      if (!consume('|')) fail("unexpected '" + utf8(peek()) + "'");
    }
    return join(alternatives, has_empty).gbnf;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw ErrorException(unsupported("pattern: " + what + " at character " +
                                     std::to_string(position_ + 1) + " (see docs/json-schema.md)"));
  }

  static std::string utf8(char32_t c) {
    std::string out;
    append_utf8(out, c);
    return out;
  }

  bool at_end() const { return position_ >= pattern_.size(); }
  char32_t peek() const { return at_end() ? 0 : pattern_[position_]; }
  bool consume(char32_t c) {
    if (at_end() || pattern_[position_] != c) return false;
    ++position_;
    return true;
  }
  char32_t next() {
    if (at_end()) fail("unexpected end");
    return pattern_[position_++];
  }

  Term join(const std::vector<std::string>& alternatives, bool has_empty) const {
    if (alternatives.empty()) return {"", true, std::nullopt};
    std::string body;
    for (const std::string& alternative : alternatives) {
      append_separated(body, " | ", alternative);
    }
    if (has_empty) return {"( " + body + " )?", true, std::nullopt};
    return {body, alternatives.size() == 1 && alternatives[0].find(' ') == std::string::npos,
            std::nullopt};
  }

  std::string parse_alternation() {
    std::vector<std::string> alternatives;
    bool has_empty = false;
    while (true) {
      std::string sequence = parse_sequence(/*top_level=*/false);
      if (sequence.empty()) {
        has_empty = true;
      } else {
        alternatives.push_back(sequence);
      }
      if (!consume('|')) break;
    }
    Term joined = join(alternatives, has_empty);
    return joined.gbnf;
  }

  // Terms until '|', ')' or the end; adjacent single characters merge into
  // one literal.
  std::string parse_sequence(bool top_level) {
    std::vector<Term> terms;
    while (!at_end() && peek() != '|' && peek() != ')') {
      if (peek() == '$') {
        bool last = position_ + 1 == pattern_.size() || pattern_[position_ + 1] == '|';
        if (top_level && last) break;
        fail("'$' is supported only at the end of the pattern or of a top-level alternative");
      }
      if (peek() == '^')
        fail("'^' is supported only at the start of the pattern or of a top-level alternative");
      Term term = parse_atom();
      term = parse_quantifier(std::move(term));
      if (!term.gbnf.empty()) terms.push_back(std::move(term));
    }
    if (top_level && peek() == ')') fail("unmatched ')'");
    std::string out;
    std::string pending_literal;
    auto flush = [&] {
      if (pending_literal.empty()) return;
      append_separated(out, " ", gbnf_literal(pending_literal));
      pending_literal.clear();
    };
    for (const Term& term : terms) {
      if (term.literal) {
        pending_literal += *term.literal;
        continue;
      }
      flush();
      append_separated(out, " ", element(term));
    }
    flush();
    return out;
  }

  Term parse_quantifier(Term term) {
    uint64_t min = 0;
    std::optional<uint64_t> max;
    char32_t c = peek();
    if (c == '*') {
      ++position_;
    } else if (c == '+') {
      ++position_;
      min = 1;
    } else if (c == '?') {
      ++position_;
      max = 1;
    } else if (c == '{') {
      ++position_;
      min = parse_count();
      max = min;
      if (consume(',')) max = peek() == '}' ? std::nullopt : std::optional<uint64_t>(parse_count());
      if (!consume('}')) fail("malformed {m,n} quantifier");
      if (max && *max < min) fail("quantifier {m,n} with n < m");
    } else {
      return term;
    }
    consume('?');  // lazy: the same strings
    if (peek() == '*' || peek() == '+' || peek() == '?' || peek() == '{') fail("nothing to repeat");
    if (term.gbnf.empty()) return term;
    return {gbnf_repeat(element(term), min, max), true, std::nullopt};
  }

  uint64_t parse_count() {
    uint64_t value = 0;
    bool any = false;
    while (peek() >= '0' && peek() <= '9') {
      value = value * 10 + (next() - '0');
      any = true;
      if (value > kMaxPatternRepeat)
        fail("repetition count above " + std::to_string(kMaxPatternRepeat));
    }
    if (!any) fail("malformed {m,n} quantifier");
    return value;
  }

  Term parse_atom() {
    char32_t c = next();
    switch (c) {
      case '(':
        return parse_group();
      case '[':
        return set_term(parse_class());
      case '.':
        return set_term(complement_ranges(kLineTerminators));
      case '\\':
        return parse_escape();
      case '*':
      case '+':
      case '?':
        fail("nothing to repeat");
      case '{':
        fail("'{' must be escaped outside a quantifier");
      default:
        return char_term(c);
    }
  }

  Term parse_group() {
    if (consume('?')) {
      if (consume(':')) {
      } else if (peek() == '<' && position_ + 1 < pattern_.size() &&
                 pattern_[position_ + 1] != '=' && pattern_[position_ + 1] != '!') {
        while (!at_end() && peek() != '>') ++position_;
        if (!consume('>')) fail("unterminated group name");
      } else {
        fail("lookaround assertions are not supported");
      }
    }
    std::string inner = parse_alternation();
    if (!consume(')')) fail("missing ')'");
    if (inner.empty()) return {"", true, std::nullopt};
    return {"( " + inner + " )", true, std::nullopt};
  }

  Term parse_escape() {
    char32_t c = next();
    if (auto set = class_escape(c)) return set_term(*set);
    return char_term(escaped_char(c, /*in_class=*/false));
  }

  // \d \w \s and their negations, or nullopt.
  static std::optional<CodePointRanges> class_escape(char32_t c) {
    switch (c) {
      case 'd':
        return kDigit;
      case 'D':
        return complement_ranges(kDigit);
      case 'w':
        return kWord;
      case 'W':
        return complement_ranges(kWord);
      case 's':
        return kSpace;
      case 'S':
        return complement_ranges(kSpace);
      default:
        return std::nullopt;
    }
  }

  char32_t escaped_char(char32_t c, bool in_class) {
    switch (c) {
      case 't':
        return '\t';
      case 'n':
        return '\n';
      case 'r':
        return '\r';
      case 'f':
        return '\f';
      case 'v':
        return '\v';
      case '0':
        if (peek() >= '0' && peek() <= '9') fail("octal escapes are not supported");
        return 0;
      case 'x':
        return parse_hex(2);
      case 'u':
        if (consume('{')) {
          char32_t value = 0;
          int digits = 0;
          while (!consume('}')) {
            value = value * 16 + hex_value(next());
            if (++digits > 6 || value > 0x10FFFF) fail("\\u{...} beyond U+10FFFF");
          }
          if (digits == 0) fail("empty \\u{}");
          return value;
        }
        return parse_hex(4);
      case 'b':
        if (in_class) return '\b';
        fail("word boundaries (\\b) are not supported");
      case 'B':
        fail("word boundaries (\\B) are not supported");
      case 'p':
      case 'P':
        fail("Unicode property escapes (\\p{...}) are not supported");
      case 'k':
        fail("named backreferences are not supported");
      case 'c':
        fail("control escapes (\\cX) are not supported");
      default:
        break;
    }
    if (c >= '1' && c <= '9') fail("backreferences are not supported");
    bool alphanumeric = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    if (alphanumeric) fail("unknown escape \\" + utf8(c));
    return c;  // escaped punctuation stands for itself
  }

  char32_t hex_value(char32_t c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    fail("malformed hex escape");
  }

  char32_t parse_hex(int digits) {
    char32_t value = 0;
    for (int i = 0; i < digits; ++i) value = value * 16 + hex_value(next());
    return value;
  }

  CodePointRanges parse_class() {
    bool negated = consume('^');
    CodePointRanges ranges;
    while (!consume(']')) {
      if (at_end()) fail("missing ']'");
      std::optional<CodePointRanges> set;
      char32_t first = class_char(set);
      if (set) {
        ranges.insert(ranges.end(), set->begin(), set->end());
        continue;
      }
      char32_t last = first;
      bool is_range =
          peek() == '-' && position_ + 1 < pattern_.size() && pattern_[position_ + 1] != ']';
      if (is_range) {
        ++position_;
        std::optional<CodePointRanges> end_set;
        last = class_char(end_set);
        if (end_set) fail("a class escape cannot end a range");
        if (last < first) fail("range out of order in character class");
      }
      ranges.emplace_back(first, last);
    }
    return negated ? complement_ranges(ranges) : normalize_ranges(ranges);
  }

  char32_t class_char(std::optional<CodePointRanges>& set) {
    char32_t c = next();
    if (c != '\\') return c;
    char32_t escaped = next();
    set = class_escape(escaped);
    if (set) return 0;
    if (escaped == '-') return '-';
    return escaped_char(escaped, /*in_class=*/true);
  }

  static Term char_term(char32_t c) {
    std::string encoded = json_encoded(c);
    return {gbnf_literal(encoded), true, encoded};
  }

  // A set of characters as encoded JSON string content. Control characters
  // in a class are left out (they would need escapes).
  Term set_term(const CodePointRanges& set) {
    CodePointRanges printable = subtract_ranges(set, {{0, 0x1F}, {0xD800, 0xDFFF}});
    CodePointRanges plain = subtract_ranges(printable, {{'"', '"'}, {'\\', '\\'}});
    std::vector<std::string> alternatives;
    if (!plain.empty()) alternatives.push_back(gbnf_class(plain));
    if (ranges_contain(printable, '"')) alternatives.push_back(gbnf_literal("\\\""));
    if (ranges_contain(printable, '\\')) alternatives.push_back(gbnf_literal("\\\\"));
    if (alternatives.empty()) fail("a character class that matches no printable character");
    if (alternatives.size() == 1) return {alternatives[0], true, std::nullopt};
    std::string body;
    for (const std::string& alternative : alternatives) append_separated(body, " | ", alternative);
    return {body, false, std::nullopt};
  }

  std::u32string pattern_;
  std::string any_char_rule_;
  size_t position_ = 0;
};

}  // namespace

Result<std::string> regex_to_gbnf(std::string_view pattern, std::string_view any_char_rule) {
  std::optional<std::u32string> code_points = decode_utf8(pattern);
  if (!code_points) return invalid_argument("pattern is not valid UTF-8");
  try {
    return RegexTranslator(std::move(*code_points), any_char_rule).translate();
  } catch (const ErrorException& error) {
    return error.error();
  }
}

}  // namespace ingot::sampling::grammar
