#pragma once
// An encoder's pass: BERT and nomic-bert, as llama.cpp's bert graph
// computes them. For each layer, post-norm:
//   x = LN(x + Wo attention(Wq x + bq, Wk x + bk, Wv x + bv))
//   x = LN(x + Wdown act(Wup x + bup) + bdown)       (BERT: GELU)
//   x = LN(x + Wdown (silu(Wgate x) * Wup x))         (nomic-bert)
// every token attending to its whole sequence; the embedding is
// LN(token + type 0 + position) (nomic-bert rotates q and k instead of
// adding positions). The final x rows are the hidden states pooled; there
// are no logits.

#include "model/forward/attention_block.h"
#include "model/forward/dense_feed_forward.h"
#include "model/forward/forward_pass.h"
#include "model/forward/kv_placement.h"
#include "model/forward/residual.h"

namespace ingot::model {

class EncoderPass final : public ForwardPass {
 public:
  EncoderPass(const ModelConfig& config, const ModelWeights& weights);

  Result<Logits> run(const Batch& batch, KvCache& cache, ThreadPool& pool) override;

 private:
  Status check_batch(const Batch& batch) const;
  void embed(const Batch& batch);
  void run_layer(int64_t layer, Step& step);

  const ModelConfig& config_;
  const ModelWeights& weights_;
  KvPlacement placement_;
  Residual residual_;
  AttentionBlock attention_;
  DenseFeedForward feed_forward_;
};

}  // namespace ingot::model
