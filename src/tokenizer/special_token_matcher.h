#pragma once
// Finds special tokens written in text, before any regex split or merge:
// the text becomes a sequence of fragments, each either plain text or one
// token id. User-defined tokens are always matched; control and unknown
// tokens only when the caller parses specials. Longer tokens take priority
// over shorter ones, and each token claims its leftmost occurrences first.

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "tokenizer/vocab.h"

namespace ingot::tokenizer {

// A byte range of a text: [begin, end).
struct TextRange {
  size_t begin = 0;
  size_t end = 0;
};

struct Fragment {
  std::string_view text;     // the plain text, when token == kNoToken
  int32_t token = kNoToken;  // a matched special token
};

class SpecialTokenMatcher {
 public:
  explicit SpecialTokenMatcher(const Vocab& vocab);

  // `literal`: sorted, disjoint ranges of the text where control tokens
  // are not matched (user-defined ones still are).
  std::vector<Fragment> partition(std::string_view text, bool parse_special,
                                  std::span<const TextRange> literal = {}) const;
  // Where control and unknown tokens are written in the text.
  std::vector<TextRange> control_token_ranges(std::string_view text) const;

 private:
  struct Occurrence {
    size_t begin;
    size_t length;
    int32_t token;
  };
  // A token's place in the text, widened by any whitespace it swallows.
  struct Claim {
    size_t begin;
    size_t end;
    int32_t token;
  };
  struct Node {
    std::vector<std::pair<uint8_t, int32_t>> children;  // byte -> node index
    int32_t token = kNoToken;
  };

  void insert(std::string_view text, int32_t token);
  int32_t child(int32_t node, uint8_t byte) const;
  std::vector<Occurrence> find_all(std::string_view text, bool parse_special,
                                   std::span<const TextRange> literal) const;
  std::vector<Claim> claim(std::string_view text, std::vector<Occurrence> found) const;
  static std::vector<Fragment> fragments_between(std::string_view text,
                                                 const std::vector<Claim>& claims);

  const Vocab* vocab_;
  std::vector<Node> nodes_;  // nodes_[0] is the root
  bool has_user_defined_ = false;
};

}  // namespace ingot::tokenizer
