#pragma once
// The vocabulary as a trie of token byte strings, for computing which
// tokens a grammar allows without testing each one: a walk follows a byte
// only while its prefix is still allowed and skips the whole subtree the
// moment it is not. Nodes are stored in depth-first order, each knowing
// where its subtree ends, so the walk is one forward scan with jumps.
//
// Control and unused tokens are not in the trie (a grammar never allows
// them); end-of-generation tokens are listed apart, since a grammar allows
// them exactly when its sentence may end. Immutable; shared by threads.

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "tokenizer/tokenizer.h"

namespace ingot::sampling::grammar {

class TokenTrie {
 public:
  struct Node {
    uint8_t byte;
    uint16_t depth;         // 1 for a token's first byte
    uint32_t subtree_end;   // index of the first node after this one's subtree
    uint32_t tokens_begin;  // this node's tokens: token_ids()[tokens_begin, next node's)
  };

  // `pieces`: token id and its bytes, for every token a grammar may allow.
  TokenTrie(int32_t vocab_size, std::vector<std::pair<int32_t, std::string>> pieces,
            std::vector<int32_t> end_of_generation);

  static std::shared_ptr<const TokenTrie> for_tokenizer(const tokenizer::Tokenizer& tokenizer);

  int32_t vocab_size() const { return vocab_size_; }
  const std::vector<Node>& nodes() const { return nodes_; }
  const std::vector<int32_t>& token_ids() const { return token_ids_; }
  // The token ids ending at node `i`.
  std::pair<uint32_t, uint32_t> tokens_at(size_t i) const {
    uint32_t end = i + 1 < nodes_.size() ? nodes_[i + 1].tokens_begin
                                         : static_cast<uint32_t>(token_ids_.size());
    return {nodes_[i].tokens_begin, end};
  }
  const std::vector<int32_t>& end_of_generation() const { return end_of_generation_; }
  // Every token in the trie with its bytes, in byte order.
  const std::vector<std::pair<int32_t, std::string>>& pieces() const { return pieces_; }
  size_t max_depth() const { return max_depth_; }

 private:
  int32_t vocab_size_;
  std::vector<Node> nodes_;
  std::vector<int32_t> token_ids_;
  std::vector<int32_t> end_of_generation_;
  std::vector<std::pair<int32_t, std::string>> pieces_;
  size_t max_depth_ = 0;
};

}  // namespace ingot::sampling::grammar
