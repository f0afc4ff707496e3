#include "sampling/grammar/gbnf_text.h"

#include <algorithm>
#include <cstdio>

namespace ingot::sampling::grammar {
namespace {

void append_hex_escape(std::string& out, char32_t c) {
  char buffer[16];
  if (c < 0x100) {
    std::snprintf(buffer, sizeof buffer, "\\x%02X", static_cast<unsigned>(c));
  } else if (c < 0x10000) {
    std::snprintf(buffer, sizeof buffer, "\\u%04X", static_cast<unsigned>(c));
  } else {
    std::snprintf(buffer, sizeof buffer, "\\U%08X", static_cast<unsigned>(c));
  }
  out += buffer;
}

// One code point inside [...]: the class syntax characters are escaped,
// everything outside printable ASCII is written as a hex escape.
void append_class_char(std::string& out, char32_t c) {
  if (c == '\\' || c == ']' || c == '[' || c == '^' || c == '-') {
    out += '\\';
    out += static_cast<char>(c);
  } else if (c >= 0x20 && c < 0x7F) {
    out += static_cast<char>(c);
  } else {
    append_hex_escape(out, c);
  }
}

std::string class_text(const CodePointRanges& ranges, bool negated) {
  std::string out = negated ? "[^" : "[";
  for (auto [first, last] : ranges) {
    append_class_char(out, first);
    if (last == first) continue;
    if (last != first + 1) out += '-';
    append_class_char(out, last);
  }
  out += ']';
  return out;
}

}  // namespace

std::string gbnf_literal(std::string_view text) {
  std::string out = "\"";
  for (char ch : text) {
    auto byte = static_cast<unsigned char>(ch);
    switch (ch) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (byte < 0x20 || byte == 0x7F) {
          append_hex_escape(out, byte);
        } else {
          out += ch;  // UTF-8 passes through: the parser reads code points
        }
    }
  }
  out += '"';
  return out;
}

CodePointRanges normalize_ranges(CodePointRanges ranges) {
  std::sort(ranges.begin(), ranges.end());
  CodePointRanges merged;
  for (auto range : ranges) {
    if (range.first > range.second) continue;
    if (!merged.empty() && range.first <= merged.back().second + 1) {
      merged.back().second = std::max(merged.back().second, range.second);
    } else {
      merged.push_back(range);
    }
  }
  return merged;
}

CodePointRanges complement_ranges(const CodePointRanges& ranges) {
  constexpr char32_t kMax = 0x10FFFF;
  CodePointRanges out;
  char32_t next = 0;
  for (auto [first, last] : normalize_ranges(ranges)) {
    if (first > next) out.emplace_back(next, first - 1);
    next = last + 1;
  }
  if (next <= kMax) out.emplace_back(next, kMax);
  return out;
}

CodePointRanges subtract_ranges(const CodePointRanges& ranges, const CodePointRanges& removed) {
  // a \ b = complement(complement(a) ∪ b)
  CodePointRanges both = complement_ranges(ranges);
  both.insert(both.end(), removed.begin(), removed.end());
  return complement_ranges(both);
}

bool ranges_contain(const CodePointRanges& ranges, char32_t c) {
  return std::any_of(ranges.begin(), ranges.end(),
                     [c](auto range) { return range.first <= c && c <= range.second; });
}

std::string gbnf_class(CodePointRanges ranges) {
  // Surrogates cannot be written in UTF-8: a class that admits them lets a
  // byte-level tokenizer start a character that can never be finished.
  ranges = subtract_ranges(ranges, {{0xD800, 0xDFFF}});
  if (ranges.empty()) return "";
  // Written positively: a negated class would admit the surrogates again.
  return class_text(ranges, false);
}

std::string gbnf_rule_name(std::string_view hint) {
  std::string name;
  for (char ch : hint) {
    bool word = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9');
    if (word) {
      name += ch;
    } else if (!name.empty() && name.back() != '-') {
      name += '-';
    }
  }
  while (!name.empty() && name.back() == '-') name.pop_back();
  return name.empty() ? "rule" : name;
}

std::optional<std::u32string> decode_utf8(std::string_view text) {
  std::u32string out;
  size_t i = 0;
  while (i < text.size()) {
    auto lead = static_cast<unsigned char>(text[i]);
    int extra = lead < 0x80           ? 0
                : (lead >> 5) == 0x6  ? 1
                : (lead >> 4) == 0xE  ? 2
                : (lead >> 3) == 0x1E ? 3
                                      : -1;
    if (extra < 0 || text.size() - i <= static_cast<size_t>(extra)) return std::nullopt;
    char32_t c = extra == 0 ? lead : lead & (0x3F >> extra);
    for (int k = 1; k <= extra; ++k) {
      auto next = static_cast<unsigned char>(text[i + k]);
      if ((next & 0xC0) != 0x80) return std::nullopt;
      c = (c << 6) | (next & 0x3F);
    }
    static constexpr char32_t kSmallest[] = {0, 0x80, 0x800, 0x10000};
    if (c < kSmallest[extra] || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)) return std::nullopt;
    out += c;
    i += extra + 1;
  }
  return out;
}

void append_utf8(std::string& out, char32_t c) {
  if (c < 0x80) {
    out += static_cast<char>(c);
  } else if (c < 0x800) {
    out += static_cast<char>(0xC0 | (c >> 6));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else if (c < 0x10000) {
    out += static_cast<char>(0xE0 | (c >> 12));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (c >> 18));
    out += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  }
}

void append_separated(std::string& out, std::string_view separator, std::string_view piece) {
  if (!out.empty()) out += separator;
  out += piece;
}

std::string join_alternatives(const std::vector<std::string>& alternatives) {
  std::string out;
  for (const std::string& alternative : alternatives) {
    if (!out.empty()) out += " | ";
    out += alternative;
  }
  return out;
}

std::string gbnf_repeat(const std::string& element, uint64_t min, std::optional<uint64_t> max) {
  if (max && *max == 0) return "";
  if (max && min == *max) {
    return min == 1 ? element : element + "{" + std::to_string(min) + "}";
  }
  if (!max) {
    if (min == 0) return element + "*";
    if (min == 1) return element + "+";
    return element + "{" + std::to_string(min) + ",}";
  }
  if (min == 0 && *max == 1) return element + "?";
  return element + "{" + std::to_string(min) + "," + std::to_string(*max) + "}";
}

// One rule per state of the automaton that finds `close`: state k has read
// the close's first k code points and nothing that completes it. Each code
// point of the close moves to the state the close's own overlaps say (as
// Knuth-Morris-Pratt computes them); any other code point back to state 0;
// the close's last one, from state n-1, is never allowed. Any state may end.
std::string gbnf_text_without(std::string_view close, const std::string& name,
                              const AddRule& add_rule) {
  const std::u32string points = decode_utf8(close).value_or(std::u32string());
  const size_t n = points.size();
  std::vector<size_t> overlap(n, 0);  // the longest proper border of each prefix
  for (size_t i = 1, k = 0; i < n; ++i) {
    while (k > 0 && points[i] != points[k]) k = overlap[k - 1];
    if (points[i] == points[k]) ++k;
    overlap[i] = k;
  }
  auto next = [&](size_t k, char32_t c) {
    while (k > 0 && points[k] != c) k = overlap[k - 1];
    return points[k] == c ? k + 1 : 0;
  };
  auto state = [&](size_t k) { return k == 0 ? name : name + "-" + std::to_string(k); };
  CodePointRanges distinct;
  for (char32_t c : points) distinct.push_back({c, c});
  distinct = normalize_ranges(distinct);
  const std::string others = gbnf_class(complement_ranges(distinct));
  for (size_t k = 0; k < n; ++k) {
    std::string body;
    for (const auto& [first, last] : distinct) {
      for (char32_t c = first; c <= last; ++c) {
        size_t to = next(k, c);
        if (to == n) continue;
        std::string text;
        append_utf8(text, c);
        append_separated(body, " | ", gbnf_literal(text) + " " + state(to));
      }
    }
    append_separated(body, " | ", others + " " + name);
    add_rule(state(k), "( " + body + " )?");
  }
  return name;
}

}  // namespace ingot::sampling::grammar
