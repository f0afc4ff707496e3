#include "model/forward/prediction_pass.h"

#include <algorithm>

#include "kernels/ops_norm.h"
#include "model/forward/layer_plan.h"
#include "model/forward/token_embedding.h"

namespace ingot::model {

PredictionPass::PredictionPass(const ModelConfig& config, const PredictionWeights& weights)
    : config_(config),
      weights_(weights),
      attention_(config, std::span(&weights.block, 1), {global_attention_layer(config)}, nullptr),
      feed_forward_(make_feed_forward(config, std::span(&weights.block, 1),
                                      !weights.block.expert_gate.empty(), nullptr)),
      head_(config) {}

Result<Logits> PredictionPass::run(const Batch& batch, const float* hidden, KvCache& cache,
                                   ThreadPool& pool) {
  if (batch.empty()) return head_.none();
  INGOT_RETURN_IF_ERROR(placement_.place(batch, config_.n_vocab, cache));
  residual_.start(batch.size(), config_.n_embd);
  embed_tokens(batch, weights_.embedding, config_, residual_.x.data());
  combine_input(hidden, batch.size(), pool);
  attention_.prepare(batch);
  Step step{batch, cache, pool, placement_, residual_, !batch.keeps_hidden()};
  attention_.run(0, step);
  if (residual_.n_rows > 0) feed_forward_->run(0, step);
  return head_.run(batch, residual_, weights_.head_norm, weights_.head, pool);
}

// x <- Wcombine [rms_norm(embedding); rms_norm(hidden)], the embedding in
// x on entry.
void PredictionPass::combine_input(const float* hidden, int64_t n_tokens, ThreadPool& pool) {
  const int64_t n = config_.n_embd;
  float* x = residual_.x.data();
  float* normed = residual_.normed.data();
  grow(combined_, n_tokens * 2 * n);
  kernels::rms_norm(x, weights_.embedding_norm.data(), normed, n_tokens, n, config_.rms_eps);
  for (int64_t t = 0; t < n_tokens; ++t) {
    std::copy_n(normed + t * n, n, combined_.data() + t * 2 * n);
  }
  kernels::rms_norm(hidden, weights_.hidden_norm.data(), normed, n_tokens, n, config_.rms_eps);
  for (int64_t t = 0; t < n_tokens; ++t) {
    std::copy_n(normed + t * n, n, combined_.data() + t * 2 * n + n);
  }
  packed_combined_.reset(combined_.data(), n_tokens, 2 * n);
  kernels::matmul(weights_.combine, packed_combined_.for_weight(weights_.combine, pool), x, n,
                  pool);
}

}  // namespace ingot::model
