// ForwardPass's second entry point: Qwen3.5's multi-token-prediction block
// (see PredictionWeights), as llama.cpp's qwen35 MTP graph computes it.

#include <algorithm>

#include "kernels/ops_norm.h"
#include "model/forward_pass.h"

namespace ingot::model {

Result<Logits> ForwardPass::run_prediction(const Batch& batch, const float* hidden, KvCache& cache,
                                           ThreadPool& pool) {
  if (!weights_.prediction) return unsupported("the model has no multi-token-prediction block");
  const PredictionWeights& p = *weights_.prediction;
  if (batch.empty()) return Logits{logits_.data(), 0, config_.n_vocab};
  INGOT_RETURN_IF_ERROR(place(batch, cache));
  const int64_t n_tokens = batch.size();
  resize_buffers(n_tokens, batch.n_logits());
  embed(batch, p.embedding);
  combine_prediction_input(hidden, n_tokens, pool);
  compute_rope_angles(batch);
  n_rows_ = n_tokens;
  for (int64_t t = 0; t < n_tokens; ++t) rows_[t] = t;
  // A global layer's shape; the block's cache holds its layer alone.
  const AttentionShape s = kind_shape(/*sliding=*/false);
  attention_block(p.block, s, !batch.keeps_hidden(), batch, cache, pool);
  if (n_rows_ > 0) feed_forward_block(p.block, n_rows_, pool);
  return output(batch, p.head_norm, p.head, pool);
}

// x_ <- Wcombine [rms_norm(embedding); rms_norm(hidden)], the embedding in
// x_ on entry.
void ForwardPass::combine_prediction_input(const float* hidden, int64_t n_tokens,
                                           ThreadPool& pool) {
  const PredictionWeights& p = *weights_.prediction;
  const int64_t n = config_.n_embd;
  if (int64_t(combined_.size()) < n_tokens * 2 * n) combined_.resize(n_tokens * 2 * n);
  kernels::rms_norm(x_.data(), p.embedding_norm.data(), normed_.data(), n_tokens, n,
                    config_.rms_eps);
  for (int64_t t = 0; t < n_tokens; ++t) {
    std::copy_n(normed_.data() + t * n, n, combined_.data() + t * 2 * n);
  }
  kernels::rms_norm(hidden, p.hidden_norm.data(), normed_.data(), n_tokens, n, config_.rms_eps);
  for (int64_t t = 0; t < n_tokens; ++t) {
    std::copy_n(normed_.data() + t * n, n, combined_.data() + t * 2 * n + n);
  }
  packed_attended_.reset(combined_.data(), n_tokens, 2 * n);
  kernels::matmul(p.combine, packed_attended_.for_weight(p.combine, pool), x_.data(), n, pool);
}

}  // namespace ingot::model
