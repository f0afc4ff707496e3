#pragma once
// An embedding's pooling: the final hidden states of a sequence's tokens
// (each normed by the model's output norm, as llama.cpp's embeddings are)
// folded into one vector, chunk by chunk as the prompt runs: their mean,
// the last token's, or the first's (CLS). Not normalized. A reranker's
// (kRank) is the state its RankHead reads, taken through the head: the
// vector of its scores.

#include <cstdint>
#include <vector>

#include "model/rank_head.h"

namespace ingot::model {

enum class Pooling { kMean, kLast, kCls, kRank };

class PooledEmbedding {
 public:
  // For a sequence of `length` tokens; kRank needs the model's head.
  PooledEmbedding(Pooling pooling, int64_t length, const RankHead* head = nullptr);

  // The hidden states of positions [first, first + n), n rows of n_embd.
  void add(const float* rows, int64_t n, int64_t n_embd, int64_t first);
  // The pooled vector, once every position was added.
  std::vector<float> take();

 private:
  Pooling pooling_;  // kRank becomes the head's kCls or kLast
  int64_t length_;
  const RankHead* head_;
  std::vector<float> sum_;
};

}  // namespace ingot::model
