#include "sampling/grammar/token_trie.h"

#include <algorithm>
#include <limits>

namespace ingot::sampling::grammar {
namespace {

bool grammar_may_allow(tokenizer::TokenType type) {
  using tokenizer::TokenType;
  return type == TokenType::kNormal || type == TokenType::kUndefined || type == TokenType::kByte ||
         type == TokenType::kUserDefined;
}

}  // namespace

TokenTrie::TokenTrie(int32_t vocab_size, std::vector<std::pair<int32_t, std::string>> pieces,
                     std::vector<int32_t> end_of_generation)
    : vocab_size_(vocab_size), end_of_generation_(std::move(end_of_generation)) {
  // Tokens longer than a node's depth field can hold are left out.
  std::erase_if(pieces, [](const auto& p) {
    return p.second.empty() || p.second.size() > std::numeric_limits<uint16_t>::max();
  });
  std::sort(pieces.begin(), pieces.end(), [](const auto& a, const auto& b) {
    return a.second < b.second || (a.second == b.second && a.first < b.first);
  });
  // Sorted strings come in depth-first order: each one shares a prefix with
  // the path to the previous one and adds nodes below it.
  std::vector<uint32_t> path;  // node indices from depth 1 down
  const std::string* previous = nullptr;
  for (const auto& [id, bytes] : pieces) {
    size_t common = 0;
    if (previous) {
      size_t limit = std::min(previous->size(), bytes.size());
      while (common < limit && (*previous)[common] == bytes[common]) ++common;
    }
    while (path.size() > common) {
      nodes_[path.back()].subtree_end = static_cast<uint32_t>(nodes_.size());
      path.pop_back();
    }
    for (size_t i = common; i < bytes.size(); ++i) {
      path.push_back(static_cast<uint32_t>(nodes_.size()));
      nodes_.push_back({static_cast<uint8_t>(bytes[i]), static_cast<uint16_t>(i + 1), 0,
                        static_cast<uint32_t>(token_ids_.size())});
    }
    token_ids_.push_back(id);
    max_depth_ = std::max(max_depth_, bytes.size());
    previous = &bytes;
  }
  for (uint32_t node : path) nodes_[node].subtree_end = static_cast<uint32_t>(nodes_.size());
  pieces_ = std::move(pieces);
}

std::shared_ptr<const TokenTrie> TokenTrie::for_tokenizer(const tokenizer::Tokenizer& tokenizer) {
  const tokenizer::Vocab& vocab = tokenizer.vocab();
  std::vector<std::pair<int32_t, std::string>> pieces;
  pieces.reserve(static_cast<size_t>(vocab.size()));
  for (int32_t id = 0; id < vocab.size(); ++id) {
    if (vocab.is_end_of_generation(id) || !grammar_may_allow(vocab.type(id))) continue;
    pieces.emplace_back(id, tokenizer.token_to_piece(id, true));
  }
  return std::make_shared<const TokenTrie>(vocab.size(), std::move(pieces),
                                           vocab.end_of_generation());
}

}  // namespace ingot::sampling::grammar
