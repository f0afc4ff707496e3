#include "model/forward/attention_block.h"

#include <algorithm>
#include <cmath>

#include "kernels/ops_hadamard.h"
#include "kernels/ops_norm.h"
#include "model/forward/cached_attention.h"
#include "model/forward/kv_writes.h"
#include "model/row_math.h"

namespace ingot::model {

AttentionBlock::AttentionBlock(const ModelConfig& config, std::span<const LayerWeights> layers,
                               std::vector<AttentionLayer> shapes, AdaptedMatmul* adapted)
    : config_(config),
      layers_(layers),
      shapes_(std::move(shapes)),
      adapted_(adapted),
      global_(config.rope),
      sliding_(config.swa.rope),
      uniform_head_dim_(uniform_head_dim(config)) {
  int64_t max_head_dim = 0;
  for (const AttentionLayer& s : shapes_) max_head_dim = std::max(max_head_dim, s.head_dim);
  ones_.assign(size_t(max_head_dim), 1.0f);
}

void AttentionBlock::prepare(const Batch& batch) {
  global_.compute(batch);
  if (!config_.swa.layers.empty()) sliding_.compute(batch);
  int64_t max_q_dim = 0, max_kv_dim = 0;
  for (const AttentionLayer& s : shapes_) {
    max_q_dim = std::max(max_q_dim, s.q_dim);
    max_kv_dim = std::max(max_kv_dim, s.kv_dim);
  }
  const int64_t n_tokens = batch.size();
  grow(q_, n_tokens * max_q_dim);
  grow(attended_, n_tokens * max_q_dim);
  grow(k_, n_tokens * max_kv_dim);
  grow(v_, n_tokens * max_kv_dim);
  if (config_.traits.gated_attention) {
    grow(q_gate_, n_tokens * 2 * max_q_dim);
    grow(output_gate_, n_tokens * max_q_dim);
  }
}

void AttentionBlock::run(int64_t layer, Step& step) {
  const LayerWeights& w = layers_[size_t(layer)];
  Residual& r = step.residual;
  const int64_t n_embd = config_.n_embd;
  kernels::rms_norm(r.x.data(), w.attn_norm.data(), r.normed.data(), step.batch.size(), n_embd,
                    config_.rms_eps);
  attend(layer, r.normed.data(), step);
  if (r.n_rows == 0) return;
  if (!w.attn_post_norm.empty()) {
    kernels::rms_norm(r.normed.data(), w.attn_post_norm.data(), r.normed.data(), r.n_rows, n_embd,
                      config_.rms_eps);
  }
  add_in_place(r.x.data(), r.normed.data(), r.n_rows * n_embd);
}

void AttentionBlock::attend(int64_t layer, const float* input, Step& step) {
  const LayerWeights& w = layers_[size_t(layer)];
  const AttentionLayer& s = shapes_[size_t(layer)];
  const int64_t n_tokens = step.batch.size();
  project_qkv(layer, input, step);
  const KvRotation rotation = kv_rotation(step.cache.types(), uniform_head_dim_);
  if (rotation.keys > 0) {
    kernels::hadamard_rotate(q_.data(), n_tokens * s.q_dim, rotation.keys);
    if (s.own_kv) kernels::hadamard_rotate(k_.data(), n_tokens * s.kv_dim, rotation.keys);
  }
  if (rotation.values > 0 && s.own_kv) {
    kernels::hadamard_rotate(v_.data(), n_tokens * s.kv_dim, rotation.values);
  }
  if (s.own_kv) store_kv(s, k_.data(), v_.data(), n_tokens, step.placement, k_f16_, step.cache);
  if (step.drops_rows) drop_rows(s, step);
  const int64_t n_rows = step.residual.n_rows;
  if (n_rows == 0) return;
  const CachedAttention attention{s,
                                  config_.n_heads,
                                  config_.causal,
                                  q_.data(),
                                  attended_.data(),
                                  step.residual.rows.data(),
                                  n_rows,
                                  w.attn_sinks.empty() ? nullptr : w.attn_sinks.data(),
                                  bidirectional_tail_};
  attend_cached(attention, step.batch, step.placement, step.cache, step.pool);
  if (rotation.values > 0) {
    kernels::hadamard_rotate(attended_.data(), n_rows * s.q_dim, rotation.values);
  }
  if (config_.traits.gated_attention) apply_output_gate(n_rows);
  project_output(layer, step);
}

void AttentionBlock::project_qkv(int64_t layer, const float* input, Step& step) {
  const LayerWeights& w = layers_[size_t(layer)];
  const AttentionLayer& s = shapes_[size_t(layer)];
  const int64_t n_tokens = step.batch.size();
  PackedInput& packed = step.residual.packed_normed;
  packed.reset(input, n_tokens, config_.n_embd);
  const bool gated = config_.traits.gated_attention;
  kernels::MatmulProduct products[3];
  size_t n_products = 0;
  products[n_products++] = gated ? packed.product(w.wq, q_gate_.data(), 2 * s.q_dim, step.pool)
                                 : packed.product(w.wq, q_.data(), s.q_dim, step.pool);
  if (s.own_kv) {
    products[n_products++] = packed.product(w.wk, k_.data(), s.kv_dim, step.pool);
    // Gemma 4 layers without a value projection use their keys as values.
    if (w.wv.rows > 0)
      products[n_products++] = packed.product(w.wv, v_.data(), s.kv_dim, step.pool);
  }
  const LoraOutput lora_outputs[] = {{LoraTarget::kQ, products[0].y, products[0].y_stride},
                                     {LoraTarget::kK, k_.data(), s.kv_dim},
                                     {LoraTarget::kV, v_.data(), s.kv_dim}};
  run_projections(adapted_, std::span(products, n_products), lora_outputs, layer, step.batch,
                  nullptr, n_tokens, packed, step.pool);
  if (s.own_kv && w.wv.rows == 0) std::copy_n(k_.data(), n_tokens * s.kv_dim, v_.data());
  if (gated) split_query_gate(n_tokens);
  add_bias(q_.data(), w.bq, n_tokens);
  add_bias(k_.data(), w.bk, n_tokens);
  add_bias(v_.data(), w.bv, n_tokens);
  normalize_heads(w, s, n_tokens);
  // BERT's positions are in its embedding.
  if (!config_.traits.learned_positions) rotate_positions(s, n_tokens);
}

void AttentionBlock::split_query_gate(int64_t n_tokens) {
  const int64_t head_dim = config_.head_dim;
  for (int64_t t = 0; t < n_tokens; ++t) {
    for (int64_t h = 0; h < config_.n_heads; ++h) {
      const float* both = q_gate_.data() + (t * config_.n_heads + h) * 2 * head_dim;
      const int64_t at = t * config_.q_dim() + h * head_dim;
      std::copy_n(both, head_dim, q_.data() + at);
      std::copy_n(both + head_dim, head_dim, output_gate_.data() + at);
    }
  }
}

void AttentionBlock::normalize_heads(const LayerWeights& w, const AttentionLayer& s,
                                     int64_t n_tokens) {
  const ModelConfig& c = config_;
  if (!w.q_norm.empty()) {
    kernels::rms_norm(q_.data(), w.q_norm.data(), q_.data(), n_tokens * c.n_heads, s.head_dim,
                      c.rms_eps);
  }
  if (s.own_kv && !w.k_norm.empty()) {
    kernels::rms_norm(k_.data(), w.k_norm.data(), k_.data(), n_tokens * s.kv_heads, s.head_dim,
                      c.rms_eps);
  }
  if (s.own_kv && c.traits.normed_values) {
    kernels::rms_norm(v_.data(), ones_.data(), v_.data(), n_tokens * s.kv_heads, s.head_dim,
                      c.rms_eps);
  }
}

void AttentionBlock::rotate_positions(const AttentionLayer& s, int64_t n_tokens) {
  const RotaryAngles& angles = s.sliding ? sliding_ : global_;
  const kernels::RopeLayout layout = config_.traits.rope_layout;
  for (int64_t t = 0; t < n_tokens; ++t) {
    angles.rotate(q_.data() + t * s.q_dim, t, config_.n_heads, s.head_dim, layout);
    if (s.own_kv) angles.rotate(k_.data() + t * s.kv_dim, t, s.kv_heads, s.head_dim, layout);
  }
}

// Once every entry's keys and values are cached, only the rows whose
// logits are wanted go on, queries and residual alike.
void AttentionBlock::drop_rows(const AttentionLayer& s, Step& step) {
  Residual& r = step.residual;
  r.keep_rows_wanting_logits(step.batch, config_.n_embd);
  compact_rows(q_.data(), s.q_dim, r.rows.data(), r.n_rows);
  if (config_.traits.gated_attention) {
    compact_rows(output_gate_.data(), s.q_dim, r.rows.data(), r.n_rows);
  }
}

void AttentionBlock::apply_output_gate(int64_t n_rows) {
  const int64_t n = n_rows * config_.q_dim();
  for (int64_t i = 0; i < n; ++i) attended_[i] *= 1.0f / (1.0f + std::exp(-output_gate_[i]));
}

// The output projection writes step.residual.normed, free again once q,
// k and v are projected.
void AttentionBlock::project_output(int64_t layer, Step& step) {
  const LayerWeights& w = layers_[size_t(layer)];
  Residual& r = step.residual;
  const int64_t q_dim = shapes_[size_t(layer)].q_dim, n_embd = config_.n_embd;
  packed_attended_.reset(attended_.data(), r.n_rows, q_dim);
  const kernels::MatmulProduct output[] = {
      packed_attended_.product(w.wo, r.normed.data(), n_embd, step.pool)};
  const LoraOutput lora_output[] = {{LoraTarget::kOutput, r.normed.data(), n_embd}};
  run_projections(adapted_, output, lora_output, layer, step.batch, r.rows.data(), r.n_rows,
                  packed_attended_, step.pool);
  add_bias(r.normed.data(), w.bo, r.n_rows);
}

}  // namespace ingot::model
