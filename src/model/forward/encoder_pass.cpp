#include "model/forward/encoder_pass.h"

#include <string>

#include "kernels/dequantize.h"
#include "kernels/ops_norm.h"
#include "model/forward/token_embedding.h"
#include "model/row_math.h"

namespace ingot::model {
namespace {

std::vector<AttentionLayer> encoder_layers(const ModelConfig& config) {
  std::vector<AttentionLayer> shapes;
  for (int64_t layer = 0; layer < config.n_layers; ++layer) {
    shapes.push_back(attention_layer(config, layer));
  }
  return shapes;
}

}  // namespace

EncoderPass::EncoderPass(const ModelConfig& config, const ModelWeights& weights)
    : config_(config),
      weights_(weights),
      attention_(config, weights.layers, encoder_layers(config), nullptr),
      feed_forward_(config, nullptr) {}

Result<Logits> EncoderPass::run(const Batch& batch, KvCache& cache, ThreadPool& pool) {
  if (batch.empty()) return Logits{nullptr, 0, config_.n_vocab};
  INGOT_RETURN_IF_ERROR(check_batch(batch));
  INGOT_RETURN_IF_ERROR(placement_.place(batch, config_.n_vocab, cache));
  residual_.start(batch.size(), config_.n_embd);
  embed(batch);
  attention_.prepare(batch);
  Step step{batch, cache, pool, placement_, residual_};
  for (int64_t layer = 0; layer < config_.n_layers; ++layer) run_layer(layer, step);
  return Logits{nullptr, 0, config_.n_vocab, residual_.x.data()};
}

// An encoder only embeds; BERT's positions end at its training context.
Status EncoderPass::check_batch(const Batch& batch) const {
  if (batch.n_logits() > 0) {
    return invalid_argument("an encoder model has no vocabulary projection: it only embeds");
  }
  if (!config_.traits.learned_positions) return {};
  for (const BatchEntry& e : batch.entries()) {
    if (e.position >= weights_.position_embedding.rows) {
      return invalid_argument("position " + std::to_string(e.position) + " is past the model's " +
                              std::to_string(weights_.position_embedding.rows) + " positions");
    }
  }
  return {};
}

void EncoderPass::embed(const Batch& batch) {
  const ModelConfig& c = config_;
  const int64_t n_tokens = batch.size();
  float* x = residual_.x.data();
  embed_tokens(batch, weights_.token_embedding, c, x);
  add_bias(x, weights_.token_type, n_tokens);
  if (c.traits.learned_positions) {
    const kernels::WeightMatrix& table = weights_.position_embedding;
    float* position = residual_.normed.data();  // free until the first layer
    for (int64_t t = 0; t < n_tokens; ++t) {
      const auto* row = static_cast<const uint8_t*>(table.data) +
                        batch.entries()[size_t(t)].position * table.row_stride;
      kernels::dequantize_row(table.type, row, position, c.n_embd);
      add_in_place(x + t * c.n_embd, position, c.n_embd);
    }
  }
  kernels::layer_norm(x, weights_.embedding_norm.data(), weights_.embedding_norm_bias.data(), x,
                      n_tokens, c.n_embd, c.norm_eps);
}

void EncoderPass::run_layer(int64_t layer, Step& step) {
  const ModelConfig& c = config_;
  const LayerWeights& w = weights_.layers[size_t(layer)];
  float* x = residual_.x.data();
  const int64_t n_tokens = step.batch.size(), n = n_tokens * c.n_embd;
  attention_.attend(layer, x, step);
  add_in_place(x, residual_.normed.data(), n);
  kernels::layer_norm(x, w.attn_post_norm.data(), w.attn_post_norm_bias.data(), x, n_tokens,
                      c.n_embd, c.norm_eps);
  residual_.packed_normed.reset(x, n_tokens, c.n_embd);
  feed_forward_.run(w, layer, residual_.packed_normed, residual_.normed.data(), step);
  add_in_place(x, residual_.normed.data(), n);
  kernels::layer_norm(x, w.ffn_post_norm.data(), w.ffn_post_norm_bias.data(), x, n_tokens, c.n_embd,
                      c.norm_eps);
}

}  // namespace ingot::model
