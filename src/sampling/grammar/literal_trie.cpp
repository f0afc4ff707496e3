#include "sampling/grammar/literal_trie.h"

#include <algorithm>

#include "sampling/grammar/gbnf_text.h"

namespace ingot::sampling::grammar {
namespace {

bool continuation_byte(char c) {
  return (static_cast<unsigned char>(c) & 0xC0) == 0x80;
}

// Where the code point starting at `at` ends.
size_t code_point_end(std::string_view text, size_t at) {
  size_t end = at + 1;
  while (end < text.size() && continuation_byte(text[end])) ++end;
  return end;
}

// How far `first` and `last` agree from `from`, cut back to the start of
// a code point: the texts are sorted, so every text between them agrees
// that far too.
size_t shared_end(std::string_view first, std::string_view last, size_t from) {
  size_t end = from;
  const size_t limit = std::min(first.size(), last.size());
  while (end < limit && first[end] == last[end]) ++end;
  while (end > from && end < first.size() && continuation_byte(first[end])) --end;
  return end;
}

class TrieWriter {
 public:
  TrieWriter(const std::vector<std::string>& texts, GbnfRuleSet& rules, std::string_view hint)
      : texts_(texts), rules_(rules), hint_(std::string(hint) + "-branch") {}

  // The body matching the rest, from byte `from`, of texts [lo, hi), which
  // agree up to `from`. Each level takes at least one code point, so the
  // recursion is no deeper than the longest text.
  std::string body(size_t lo, size_t hi, size_t from) {
    std::string_view first = texts_[lo];
    const size_t end = hi - lo == 1 ? first.size() : shared_end(first, texts_[hi - 1], from);
    std::string prefix = end > from ? gbnf_literal(first.substr(from, end - from)) : "";
    if (hi - lo == 1) return prefix;
    // Sorted, the text that ends here (if one does) comes first.
    const bool one_ends_here = first.size() == end;
    std::string branch = rules_.intern(hint_, branches(one_ends_here ? lo + 1 : lo, hi, end));
    if (one_ends_here) branch += "?";
    return prefix.empty() ? branch : prefix + " " + branch;
  }

 private:
  // One alternative per distinct code point at `at` among texts [lo, hi).
  std::string branches(size_t lo, size_t hi, size_t at) {
    std::vector<std::string> alternatives;
    for (size_t group = lo; group < hi;) {
      std::string_view text = texts_[group];
      std::string_view head = text.substr(at, code_point_end(text, at) - at);
      size_t next = group + 1;
      while (next < hi && std::string_view(texts_[next]).substr(at, head.size()) == head) ++next;
      alternatives.push_back(body(group, next, at));
      group = next;
    }
    return join_alternatives(alternatives);
  }

  const std::vector<std::string>& texts_;
  GbnfRuleSet& rules_;
  std::string hint_;
};

}  // namespace

std::string literal_trie_body(std::vector<std::string> texts, GbnfRuleSet& rules,
                              std::string_view hint) {
  std::sort(texts.begin(), texts.end());
  texts.erase(std::unique(texts.begin(), texts.end()), texts.end());
  return TrieWriter(texts, rules, hint).body(0, texts.size(), 0);
}

}  // namespace ingot::sampling::grammar
