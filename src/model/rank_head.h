#pragma once
// A reranker's score of one (query, document) sequence, as llama.cpp's rank
// pooling computes it: the pooled state (an encoder's first token, a
// decoder's last) through the file's classification head. BERT's head is
// a dense tanh layer then cls.output; Qwen3-Reranker's is cls.output alone
// (the rows of its "yes" and "no" tokens), softmaxed. The relevance score
// is the first output.

#include <span>
#include <vector>

#include "model/model_config.h"
#include "model/weights.h"

namespace ingot::model {

class RankHead {
 public:
  RankHead(const ModelConfig& config, const ModelWeights& weights);

  // Whether the sequence's last token's state is scored (a decoder's),
  // else its first (an encoder's [CLS]).
  bool reads_last_token() const { return !config_.traits.encoder; }
  // The head's outputs for one pooled state of n_embd values.
  std::vector<float> scores(std::span<const float> state) const;

 private:
  const ModelConfig& config_;
  const ModelWeights& weights_;
};

}  // namespace ingot::model
