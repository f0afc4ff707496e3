// ForwardPass's encoder entry point: BERT and nomic-bert, as llama.cpp's
// bert graph computes them. For each layer, post-norm:
//   x = LN(x + Wo attention(Wq x + bq, Wk x + bk, Wv x + bv))
//   x = LN(x + Wdown act(Wup x + bup) + bdown)       (BERT: GELU)
//   x = LN(x + Wdown (silu(Wgate x) * Wup x))         (nomic-bert)
// every token attending to its whole sequence; the embedding is
// LN(token + type 0 + position) (nomic-bert rotates q and k instead of
// adding positions). The final x rows are the hidden states pooled.

#include <algorithm>

#include "kernels/dequantize.h"
#include "kernels/ops_hadamard.h"
#include "kernels/ops_norm.h"
#include "model/forward_pass.h"
#include "model/row_math.h"

namespace ingot::model {
Result<Logits> ForwardPass::run_encoder(const Batch& batch, KvCache& cache, ThreadPool& pool) {
  INGOT_RETURN_IF_ERROR(check_encoder_batch(batch));
  INGOT_RETURN_IF_ERROR(place(batch, cache));
  const int64_t n_tokens = batch.size();
  resize_buffers(n_tokens, 0);
  embed_encoder(batch);
  compute_rope_angles(batch);
  n_rows_ = n_tokens;
  for (int64_t t = 0; t < n_tokens; ++t) rows_[t] = t;
  for (int64_t layer = 0; layer < config_.n_layers; ++layer) {
    encoder_layer(layer, batch, cache, pool);
  }
  return Logits{logits_.data(), 0, config_.n_vocab, x_.data()};
}

// An encoder only embeds; BERT's positions end at its training context.
Status ForwardPass::check_encoder_batch(const Batch& batch) const {
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

void ForwardPass::embed_encoder(const Batch& batch) {
  const ModelConfig& c = config_;
  const int64_t n_tokens = batch.size();
  embed(batch, weights_.token_embedding);
  add_bias(x_.data(), weights_.token_type, n_tokens);
  if (c.traits.learned_positions) {
    const kernels::WeightMatrix& table = weights_.position_embedding;
    float* position = normed_.data();  // free until the first layer
    for (int64_t t = 0; t < n_tokens; ++t) {
      const auto* row = static_cast<const uint8_t*>(table.data) +
                        batch.entries()[size_t(t)].position * table.row_stride;
      kernels::dequantize_row(table.type, row, position, c.n_embd);
      add_in_place(x_.data() + t * c.n_embd, position, c.n_embd);
    }
  }
  kernels::layer_norm(x_.data(), weights_.embedding_norm.data(),
                      weights_.embedding_norm_bias.data(), x_.data(), n_tokens, c.n_embd,
                      c.norm_eps);
}

void ForwardPass::encoder_layer(int64_t layer, const Batch& batch, KvCache& cache,
                                ThreadPool& pool) {
  const ModelConfig& c = config_;
  const LayerWeights& w = weights_.layers[size_t(layer)];
  const AttentionShape s = attention_shape(layer);
  const int64_t n_tokens = batch.size();
  project_qkv(w, s, x_.data(), n_tokens, pool);
  const KvRotation rotation = kv_rotation(cache.types());
  rotate_for_cache(s, rotation, n_tokens);
  store_kv(s, n_tokens, cache);
  attend(s, nullptr, batch, cache, pool);
  if (rotation.values > 0) {
    kernels::hadamard_rotate(attended_.data(), n_tokens * s.q_dim, rotation.values);
  }
  packed_attended_.reset(attended_.data(), n_tokens, s.q_dim);
  kernels::matmul(w.wo, packed_attended_.for_weight(w.wo, pool), normed_.data(), c.n_embd, pool);
  add_bias(normed_.data(), w.bo, n_tokens);
  add_in_place(x_.data(), normed_.data(), n_tokens * c.n_embd);
  kernels::layer_norm(x_.data(), w.attn_post_norm.data(), w.attn_post_norm_bias.data(), x_.data(),
                      n_tokens, c.n_embd, c.norm_eps);
  encoder_feed_forward(w, n_tokens, pool);
}

void ForwardPass::encoder_feed_forward(const LayerWeights& w, int64_t n_tokens, ThreadPool& pool) {
  const ModelConfig& c = config_;
  packed_normed_.reset(x_.data(), n_tokens, c.n_embd);
  if (w.gate.rows > 0) {
    const kernels::MatmulProduct products[] = {
        packed_normed_.product(w.gate, gate_.data(), c.n_ff, pool),
        packed_normed_.product(w.up, up_.data(), c.n_ff, pool)};
    kernels::matmul_all(products, pool);
    gate_and_pack(w.down, n_tokens, HiddenActivation::kSwiGLU, pool);
  } else {
    // BERT's unit has no gate: its up projection goes where the gate's would.
    kernels::matmul(w.up, packed_normed_.for_weight(w.up, pool), gate_.data(), c.n_ff, pool);
    gate_and_pack(w.down, n_tokens, HiddenActivation::kGelu, pool, w.up_bias);
  }
  kernels::matmul(w.down, packed_hidden_, normed_.data(), c.n_embd, pool);
  add_bias(normed_.data(), w.down_bias, n_tokens);
  add_in_place(x_.data(), normed_.data(), n_tokens * c.n_embd);
  kernels::layer_norm(x_.data(), w.ffn_post_norm.data(), w.ffn_post_norm_bias.data(), x_.data(),
                      n_tokens, c.n_embd, c.norm_eps);
}

}  // namespace ingot::model
