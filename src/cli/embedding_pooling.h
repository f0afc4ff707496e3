#pragma once
// How `serve --embeddings` and `embed` pool an input's hidden states:
// --pooling when given, else the file's pooling_type (mean, CLS or last),
// else an encoder's first token's and a decoder's last, as a decoder
// embedder (Qwen3-Embedding) pools.

#include <string>

#include "engine/generation_request.h"
#include "model/model_config.h"

namespace ingot::cli {

inline engine::Pooling embedding_pooling(const std::string& flag,
                                         const model::ModelConfig& config) {
  if (flag == "mean") return engine::Pooling::kMean;
  if (flag == "cls") return engine::Pooling::kCls;
  if (flag == "last") return engine::Pooling::kLast;
  if (config.pooling_type == 1) return engine::Pooling::kMean;
  if (config.pooling_type == 2) return engine::Pooling::kCls;
  // A reranker's state (rank pooling) is its first token's in an encoder.
  if (config.traits.encoder) return engine::Pooling::kCls;
  return engine::Pooling::kLast;
}

}  // namespace ingot::cli
