#pragma once
// Qwen3.5's multi-token-prediction block (see PredictionWeights), as
// llama.cpp's qwen35 MTP graph computes it: entry t pairs its token with
// row t of `hidden`, the trunk's final state at the position before it,
//   x = Wcombine [rms_norm(embedding); rms_norm(hidden)]
// then one global attention layer and the trunk's feed-forward kind, and
// logits through the block's own head. Its buffers are its own, so the
// trunk's logits and hidden states stay valid while it runs.

#include <memory>
#include <vector>

#include "model/forward/attention_block.h"
#include "model/forward/kv_placement.h"
#include "model/forward/output_head.h"
#include "model/forward/residual.h"

namespace ingot::model {

class PredictionPass {
 public:
  PredictionPass(const ModelConfig& config, const PredictionWeights& weights);

  // `cache` is the block's own (one layer). The logits predict the token
  // after each entry's successor; the batch may keep hidden states, the
  // block's own, for a next prediction.
  Result<Logits> run(const Batch& batch, const float* hidden, KvCache& cache, ThreadPool& pool);
  void reset_rope() { attention_.reset_rope(); }

 private:
  void combine_input(const float* hidden, int64_t n_tokens, ThreadPool& pool);

  const ModelConfig& config_;
  const PredictionWeights& weights_;
  KvPlacement placement_;
  Residual residual_;
  AttentionBlock attention_;
  std::unique_ptr<Block> feed_forward_;
  OutputHead head_;
  std::vector<float> combined_;  // [T][2 n_embd] the block's input
  PackedInput packed_combined_;
};

}  // namespace ingot::model
