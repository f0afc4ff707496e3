#include "tokenizer/special_token_matcher.h"

#include <algorithm>
#include <iterator>
#include <map>

namespace ingot::tokenizer {
namespace {

// Matches C's isspace in the "C" locale: what an added token's lstrip and
// rstrip swallow.
bool is_ascii_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

// The text positions already given to a token (or to whitespace it swallowed),
// as disjoint [begin, end) intervals keyed by begin.
class ClaimedRanges {
 public:
  bool overlaps(size_t begin, size_t end) const {
    auto next = ranges_.lower_bound(end);
    if (next == ranges_.begin()) return false;
    return std::prev(next)->second > begin;
  }
  bool contains(size_t pos) const { return overlaps(pos, pos + 1); }
  void add(size_t begin, size_t end) { ranges_.emplace(begin, end); }

 private:
  std::map<size_t, size_t> ranges_;
};

// Whether [begin, end) meets any of the sorted, disjoint ranges.
bool meets_any(std::span<const TextRange> ranges, size_t begin, size_t end) {
  auto after = std::upper_bound(ranges.begin(), ranges.end(), begin,
                                [](size_t pos, const TextRange& r) { return pos < r.end; });
  return after != ranges.end() && after->begin < end;
}

}  // namespace

SpecialTokenMatcher::SpecialTokenMatcher(const Vocab& vocab) : vocab_(&vocab), nodes_(1) {
  for (int32_t id = 0; id < vocab.size(); ++id) {
    if (!vocab.is_special(id)) continue;
    insert(vocab.text(id), id);
    has_user_defined_ |= vocab.type(id) == TokenType::kUserDefined;
  }
}

void SpecialTokenMatcher::insert(std::string_view text, int32_t token) {
  int32_t node = 0;
  for (char c : text) {
    auto byte = static_cast<uint8_t>(c);
    int32_t next = child(node, byte);
    if (next < 0) {
      next = static_cast<int32_t>(nodes_.size());
      nodes_[node].children.emplace_back(byte, next);
      nodes_.emplace_back();
    }
    node = next;
  }
  // With duplicate texts the lowest id keeps the text.
  if (nodes_[node].token == kNoToken) nodes_[node].token = token;
}

int32_t SpecialTokenMatcher::child(int32_t node, uint8_t byte) const {
  for (const auto& [key, index] : nodes_[node].children) {
    if (key == byte) return index;
  }
  return -1;
}

std::vector<SpecialTokenMatcher::Occurrence> SpecialTokenMatcher::find_all(
    std::string_view text, bool parse_special, std::span<const TextRange> literal) const {
  std::vector<Occurrence> found;
  for (size_t start = 0; start < text.size(); ++start) {
    int32_t node = 0;
    for (size_t pos = start; pos < text.size(); ++pos) {
      node = child(node, static_cast<uint8_t>(text[pos]));
      if (node < 0) break;
      int32_t token = nodes_[node].token;
      if (token == kNoToken) continue;
      if (vocab_->type(token) != TokenType::kUserDefined &&
          (!parse_special || meets_any(literal, start, pos + 1))) {
        continue;
      }
      found.push_back({start, pos + 1 - start, token});
    }
  }
  return found;
}

std::vector<Fragment> SpecialTokenMatcher::partition(std::string_view text, bool parse_special,
                                                     std::span<const TextRange> literal) const {
  std::vector<Occurrence> found;
  if (parse_special || has_user_defined_) found = find_all(text, parse_special, literal);
  if (found.empty()) {
    if (text.empty()) return {};
    return {Fragment{text, kNoToken}};
  }
  return fragments_between(text, claim(text, std::move(found)));
}

std::vector<TextRange> SpecialTokenMatcher::control_token_ranges(std::string_view text) const {
  std::vector<Occurrence> found;
  for (const Occurrence& o : find_all(text, /*parse_special=*/true, {})) {
    if (vocab_->type(o.token) != TokenType::kUserDefined) found.push_back(o);
  }
  std::vector<TextRange> ranges;
  for (const Claim& c : claim(text, std::move(found))) ranges.push_back({c.begin, c.end});
  return ranges;
}

// Gives occurrences their text in priority order: longest tokens first, then
// the lower id, then the leftmost place; an occurrence overlapping text
// already given is dropped. Returns the claims in text order.
std::vector<SpecialTokenMatcher::Claim> SpecialTokenMatcher::claim(
    std::string_view text, std::vector<Occurrence> found) const {
  std::sort(found.begin(), found.end(), [](const Occurrence& a, const Occurrence& b) {
    if (a.length != b.length) return a.length > b.length;
    if (a.token != b.token) return a.token < b.token;
    return a.begin < b.begin;
  });
  ClaimedRanges claimed;
  std::vector<Claim> claims;
  for (const Occurrence& occurrence : found) {
    size_t end = occurrence.begin + occurrence.length;
    if (claimed.overlaps(occurrence.begin, end)) continue;
    Claim claim{occurrence.begin, end, occurrence.token};
    auto unclaimed_space = [&](size_t pos) {
      return is_ascii_space(text[pos]) && !claimed.contains(pos);
    };
    if (vocab_->strips_left(claim.token)) {
      while (claim.begin > 0 && unclaimed_space(claim.begin - 1)) --claim.begin;
    }
    if (vocab_->strips_right(claim.token)) {
      while (claim.end < text.size() && unclaimed_space(claim.end)) ++claim.end;
    }
    claimed.add(claim.begin, claim.end);
    claims.push_back(claim);
  }
  std::sort(claims.begin(), claims.end(),
            [](const Claim& a, const Claim& b) { return a.begin < b.begin; });
  return claims;
}

std::vector<Fragment> SpecialTokenMatcher::fragments_between(std::string_view text,
                                                             const std::vector<Claim>& claims) {
  std::vector<Fragment> fragments;
  size_t cursor = 0;
  for (const Claim& claim : claims) {
    if (claim.begin > cursor) fragments.push_back({text.substr(cursor, claim.begin - cursor)});
    fragments.push_back({{}, claim.token});
    cursor = claim.end;
  }
  if (cursor < text.size()) fragments.push_back({text.substr(cursor)});
  return fragments;
}

}  // namespace ingot::tokenizer
