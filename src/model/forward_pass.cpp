#include "model/forward_pass.h"

#include <algorithm>
#include <cmath>

#include "kernels/activation_pack.h"
#include "kernels/dequantize.h"
#include "kernels/kernel_table.h"
#include "kernels/kv_tiles.h"
#include "kernels/ops_activation.h"
#include "kernels/ops_attention.h"
#include "kernels/ops_hadamard.h"
#include "kernels/ops_norm.h"
#include "model/row_math.h"

namespace ingot::model {
namespace {

template <typename T>
void grow(std::vector<T>& buffer, int64_t size) {
  if (int64_t(buffer.size()) < size) buffer.resize(size);
}

}  // namespace

ForwardPass::ForwardPass(const ModelConfig& config, const ModelWeights& weights)
    : config_(config),
      weights_(weights),
      rope_(config.rope),
      sliding_rope_(config.swa.rope),
      linear_attention_(config),
      experts_(config),
      per_layer_(config, weights) {
  int64_t max_head_dim = 0;
  for (int64_t layer = 0; layer < config.n_layers; ++layer) {
    max_head_dim = std::max(max_head_dim, config.head_dim_of(layer));
  }
  max_q_dim_ = config.n_heads * max_head_dim;
  for (int64_t layer = 0; layer < config.n_layers; ++layer) {
    max_kv_dim_ = std::max(max_kv_dim_, config.kv_dim_of(layer));
  }
  max_kv_dim_ = std::max(max_kv_dim_, config.kv_dim());  // the prediction block's
  for (int64_t layer = 0; layer < config.n_layers; ++layer) {
    if (config.is_recurrent(layer)) continue;
    const int64_t head_dim = config.head_dim_of(layer);
    if (uniform_head_dim_ == 0) uniform_head_dim_ = head_dim;
    if (uniform_head_dim_ != head_dim) uniform_head_dim_ = -1;
  }
  ones_.assign(size_t(std::max(max_head_dim, config.n_embd)), 1.0f);
}

ForwardPass::AttentionShape ForwardPass::attention_shape(int64_t layer) const {
  AttentionShape s = kind_shape(config_.is_sliding(layer));
  s.kv_layer = config_.kind_index[size_t(layer)];
  s.own_kv = config_.kv_source[size_t(layer)] == layer;
  return s;
}

// A sliding-window or global layer's shape, reading and writing KV layer 0.
ForwardPass::AttentionShape ForwardPass::kind_shape(bool sliding) const {
  const ModelConfig& c = config_;
  AttentionShape s;
  s.head_dim = sliding ? c.swa.head_dim : c.head_dim;
  s.q_dim = c.n_heads * s.head_dim;
  s.kv_heads = sliding ? c.swa.kv_heads : c.n_kv_heads;
  s.kv_dim = s.kv_heads * s.head_dim;
  s.kv_layer = 0;
  s.own_kv = true;
  s.window = sliding ? c.swa.window : 0;
  s.rope = sliding ? &sliding_rope_ : &rope_;
  s.cos = sliding ? sliding_cos_.data() : rope_cos_.data();
  s.sin = sliding ? sliding_sin_.data() : rope_sin_.data();
  s.scale = kernels::ScoreScale(
      c.attention_scale > 0 ? c.attention_scale : 1.0f / std::sqrt(float(s.head_dim)),
      c.gemma.attention_softcap);
  return s;
}

Result<Logits> ForwardPass::run(const Batch& batch, KvCache& cache, ThreadPool& pool) {
  if (batch.empty()) return Logits{logits_.data(), 0, config_.n_vocab};
  if (config_.traits.encoder) return run_encoder(batch, cache, pool);
  INGOT_RETURN_IF_ERROR(place(batch, cache));
  const int64_t n_tokens = batch.size();
  resize_buffers(n_tokens, batch.n_logits());
  embed(batch, weights_.token_embedding);
  if (per_layer_.enabled()) per_layer_.prepare(batch, x_.data(), pool);
  compute_rope_angles(batch);
  prepare_checkpoints(batch, cache);
  n_rows_ = n_tokens;
  for (int64_t t = 0; t < n_tokens; ++t) rows_[t] = t;
  for (int64_t layer = 0; layer < config_.n_layers; ++layer) {
    if (config_.is_recurrent(layer)) {
      linear_attention_block(layer, batch, cache, pool);
    } else {
      attention_block(weights_.layers[layer], attention_shape(layer),
                      drops_rows_after(layer, batch), batch, cache, pool);
    }
    if (n_rows_ > 0) feed_forward_block(weights_.layers[layer], n_rows_, pool, &batch);
    if (config_.traits.gemma && n_rows_ > 0) finish_layer(weights_.layers[layer], layer, pool);
  }
  advance_recurrent_states(batch, cache);
  if (cache.trims_windows()) {
    // Once per run of one sequence's entries (the engine keeps a
    // sequence's entries together); sliding again would change nothing.
    const std::vector<BatchEntry>& entries = batch.entries();
    for (size_t t = 0; t < entries.size(); ++t) {
      if (t + 1 == entries.size() || entries[t + 1].sequence != entries[t].sequence) {
        cache.slide_window(entries[t].sequence);
      }
    }
  }
  return output(batch, weights_.output_norm, weights_.output, pool);
}

// Entries that ask for a checkpoint get one in the cache's recurrent
// states, the sequence's last step's given back first.
void ForwardPass::prepare_checkpoints(const Batch& batch, KvCache& cache) {
  checkpoints_.clear();
  if (config_.n_recurrent_layers == 0) return;
  const std::vector<BatchEntry>& entries = batch.entries();
  if (std::none_of(entries.begin(), entries.end(),
                   [](const BatchEntry& e) { return e.checkpoint; }))
    return;
  checkpoints_.assign(entries.size(), nullptr);
  for (const BatchEntry& e : entries) {
    if (e.checkpoint) cache.recurrent().clear_checkpoints(e.sequence);
  }
  for (size_t t = 0; t < entries.size(); ++t) {
    if (!entries[t].checkpoint) continue;
    checkpoints_[t] =
        cache.recurrent().add_checkpoint(entries[t].sequence, entries[t].position + 1);
  }
}

bool ForwardPass::drops_rows_after(int64_t layer, const Batch& batch) const {
  return layer + 1 == config_.n_layers && !batch.keeps_hidden();
}

void ForwardPass::advance_recurrent_states(const Batch& batch, KvCache& cache) {
  if (config_.n_recurrent_layers == 0) return;
  for (const BatchEntry& e : batch.entries()) {
    cache.recurrent().set_length(e.sequence, e.position + 1);
  }
}

// Claims a cache cell for every entry, in order; on the first failure the
// cells already claimed are given back.
Status ForwardPass::place(const Batch& batch, KvCache& cache) {
  const std::vector<BatchEntry>& entries = batch.entries();
  grow(placements_, batch.size());
  for (size_t i = 0; i < entries.size(); ++i) {
    const BatchEntry& e = entries[i];
    Status status;
    if (e.token < 0 || e.token >= config_.n_vocab) {
      status =
          invalid_argument("token id " + std::to_string(e.token) + " is outside the vocabulary");
    } else {
      Result<KvCache::Cell> cell = cache.append(e.sequence, e.position);
      if (cell.ok())
        placements_[i].cell = *cell;
      else
        status = cell.status();
    }
    if (!status.ok()) {
      for (size_t j = i; j-- > 0;) cache.truncate(entries[j].sequence, entries[j].position);
      return status;
    }
  }
  // Only now, with every sequence at its final length, are block lists stable.
  for (size_t i = 0; i < entries.size(); ++i) {
    placements_[i].blocks = &cache.blocks(entries[i].sequence);
  }
  return {};
}

void ForwardPass::resize_buffers(int64_t n_tokens, int64_t n_logits) {
  const ModelConfig& c = config_;
  grow(x_, n_tokens * c.n_embd);
  grow(normed_, n_tokens * c.n_embd);
  grow(q_, n_tokens * max_q_dim_);
  if (c.traits.hybrid) {
    grow(q_gate_, n_tokens * 2 * c.q_dim());
    grow(attn_gate_, n_tokens * c.q_dim());
  }
  grow(k_, n_tokens * max_kv_dim_);
  grow(v_, n_tokens * max_kv_dim_);
  grow(k_f16_, n_tokens * max_kv_dim_);
  grow(attended_, n_tokens * max_q_dim_);
  grow(rows_, n_tokens);
  if (c.experts.count > 0) {
    grow(routed_, n_tokens * c.n_embd);
    grow(shared_scale_, n_tokens);
    if (c.traits.gemma) {
      grow(experts_in_, n_tokens * c.n_embd);
      grow(router_in_, n_tokens * c.n_embd);
    }
  }
  grow(gate_, n_tokens * c.n_ff);
  grow(up_, n_tokens * c.n_ff);
  grow(rope_cos_, n_tokens * c.rope.n_rot / 2);
  grow(rope_sin_, n_tokens * c.rope.n_rot / 2);
  if (has_sliding_layers()) {
    grow(sliding_cos_, n_tokens * c.swa.rope.n_rot / 2);
    grow(sliding_sin_, n_tokens * c.swa.rope.n_rot / 2);
  }
  grow(final_, n_logits * c.n_embd);
  grow(hidden_, n_tokens * c.n_embd);
  grow(logits_, n_logits * c.n_vocab);
}

void ForwardPass::embed(const Batch& batch, const kernels::WeightMatrix& table) {
  const std::vector<BatchEntry>& entries = batch.entries();
  for (size_t t = 0; t < entries.size(); ++t) {
    const auto* row = static_cast<const uint8_t*>(table.data) + entries[t].token * table.row_stride;
    kernels::dequantize_row(table.type, row, x_.data() + t * config_.n_embd, config_.n_embd);
  }
  if (config_.traits.gemma) {  // Gemma scales its embeddings by sqrt(n_embd)
    const float scale = std::sqrt(float(config_.n_embd));
    for (int64_t i = 0; i < batch.size() * config_.n_embd; ++i) x_[i] *= scale;
  }
}

void ForwardPass::compute_rope_angles(const Batch& batch) {
  const int64_t n_pairs = config_.rope.n_rot / 2;
  const std::vector<BatchEntry>& entries = batch.entries();
  for (size_t t = 0; t < entries.size(); ++t) {
    rope_.angles(entries[t].position, rope_cos_.data() + t * n_pairs,
                 rope_sin_.data() + t * n_pairs);
  }
  if (!has_sliding_layers()) return;
  const int64_t sliding_pairs = config_.swa.rope.n_rot / 2;
  for (size_t t = 0; t < entries.size(); ++t) {
    sliding_rope_.angles(entries[t].position, sliding_cos_.data() + t * sliding_pairs,
                         sliding_sin_.data() + t * sliding_pairs);
  }
}

void ForwardPass::attention_block(const LayerWeights& w, const AttentionShape& s, bool drops_rows,
                                  const Batch& batch, KvCache& cache, ThreadPool& pool) {
  const int64_t n_tokens = batch.size();
  kernels::rms_norm(x_.data(), w.attn_norm.data(), normed_.data(), n_tokens, config_.n_embd,
                    config_.rms_eps);
  project_qkv(w, s, normed_.data(), n_tokens, pool, &batch);
  const KvRotation rotation = kv_rotation(cache.types());
  rotate_for_cache(s, rotation, n_tokens);
  if (s.own_kv) store_kv(s, n_tokens, cache);
  if (drops_rows) keep_output_rows(batch, s.q_dim);
  if (n_rows_ == 0) return;
  attend(s, w.attn_sinks.empty() ? nullptr : w.attn_sinks.data(), batch, cache, pool);
  if (rotation.values > 0) {
    kernels::hadamard_rotate(attended_.data(), n_rows_ * s.q_dim, rotation.values);
  }
  if (config_.traits.hybrid) apply_output_gate();
  // The output projection reuses `normed_` for its result.
  packed_attended_.reset(attended_.data(), n_rows_, s.q_dim);
  const kernels::MatmulProduct output[] = {
      packed_attended_.product(w.wo, normed_.data(), config_.n_embd, pool)};
  const LoraOutput lora_output[] = {{LoraTarget::kOutput, normed_.data(), config_.n_embd}};
  matmul_with_lora(output, lora_output, layer_index(w), &batch, rows_.data(), n_rows_,
                   packed_attended_, pool);
  add_bias(normed_.data(), w.bo, n_rows_);
  if (!w.attn_post_norm.empty()) {
    kernels::rms_norm(normed_.data(), w.attn_post_norm.data(), normed_.data(), n_rows_,
                      config_.n_embd, config_.rms_eps);
  }
  add_in_place(x_.data(), normed_.data(), n_rows_ * config_.n_embd);
}

// Gemma 4's end of a layer: the per-layer embedding's term, then the
// layer's output scale.
void ForwardPass::finish_layer(const LayerWeights& w, int64_t layer, ThreadPool& pool) {
  if (per_layer_.enabled()) per_layer_.apply(w, layer, x_.data(), n_rows_, rows_.data(), pool);
  if (w.output_scale != 1.0f) {
    for (int64_t i = 0; i < n_rows_ * config_.n_embd; ++i) x_[i] *= w.output_scale;
  }
}

// Every entry goes through the layer: its recurrent state must take in
// every token. In the last layer only the rows that want logits go on.
void ForwardPass::linear_attention_block(int64_t layer, const Batch& batch, KvCache& cache,
                                         ThreadPool& pool) {
  const LayerWeights& w = weights_.layers[layer];
  const int64_t n_tokens = batch.size();
  kernels::rms_norm(x_.data(), w.attn_norm.data(), normed_.data(), n_tokens, config_.n_embd,
                    config_.rms_eps);
  packed_normed_.reset(normed_.data(), n_tokens, config_.n_embd);
  // The output lands in `normed_`, packed already.
  linear_attention_.run(w, config_.kind_index[layer], batch, packed_normed_, cache.recurrent(),
                        checkpoints_, normed_.data(), pool);
  add_in_place(x_.data(), normed_.data(), n_tokens * config_.n_embd);
  if (drops_rows_after(layer, batch)) keep_output_rows(batch, config_.q_dim());
}

// In the last layer, once every entry's keys and values are cached, only
// the rows whose logits are wanted matter: the rest of a prompt chunk is
// dropped from the queries and the residual stream, which saves that
// layer's attention, output projection and feed-forward for them.
void ForwardPass::keep_output_rows(const Batch& batch, int64_t q_dim) {
  const ModelConfig& c = config_;
  const std::vector<BatchEntry>& entries = batch.entries();
  int64_t kept = 0;
  for (int64_t t = 0; t < int64_t(entries.size()); ++t) {
    if (!entries[t].wants_logits) continue;
    if (kept != t) {
      std::copy_n(q_.data() + t * q_dim, q_dim, q_.data() + kept * q_dim);
      if (c.traits.hybrid) {
        std::copy_n(attn_gate_.data() + t * q_dim, q_dim, attn_gate_.data() + kept * q_dim);
      }
      std::copy_n(x_.data() + t * c.n_embd, c.n_embd, x_.data() + kept * c.n_embd);
    }
    rows_[kept++] = t;
  }
  n_rows_ = kept;
}

int64_t ForwardPass::layer_index(const LayerWeights& w) const {
  const int64_t index = &w - weights_.layers.data();
  return index >= 0 && index < int64_t(weights_.layers.size()) ? index : -1;
}

void ForwardPass::matmul_with_lora(std::span<const kernels::MatmulProduct> products,
                                   std::span<const LoraOutput> outputs, int64_t layer,
                                   const Batch* batch, const int64_t* rows, int64_t n_rows,
                                   PackedInput& lora_input, ThreadPool& pool) {
  // A block outside the trunk (the prediction block) has no adapters.
  if (batch == nullptr || !batch->has_lora() || layer < 0) {
    return kernels::matmul_all(products, pool);
  }
  lora_.group_rows(*batch, rows, n_rows);
  lora_products_.assign(products.begin(), products.end());
  lora_.add_down_products(layer, outputs, lora_input, lora_products_, pool);
  kernels::matmul_all(lora_products_, pool);
  lora_.add_deltas(outputs, pool);
}

void ForwardPass::project_qkv(const LayerWeights& w, const AttentionShape& s, const float* input,
                              int64_t n_tokens, ThreadPool& pool, const Batch* batch) {
  const ModelConfig& c = config_;
  packed_normed_.reset(input, n_tokens, c.n_embd);
  const bool gated = c.traits.hybrid;
  kernels::MatmulProduct products[3];
  size_t n_products = 0;
  products[n_products++] = gated ? packed_normed_.product(w.wq, q_gate_.data(), 2 * s.q_dim, pool)
                                 : packed_normed_.product(w.wq, q_.data(), s.q_dim, pool);
  if (s.own_kv) {
    products[n_products++] = packed_normed_.product(w.wk, k_.data(), s.kv_dim, pool);
    // Gemma 4 layers without a value projection use their keys as values.
    if (w.wv.rows > 0)
      products[n_products++] = packed_normed_.product(w.wv, v_.data(), s.kv_dim, pool);
  }
  const LoraOutput lora_outputs[] = {{LoraTarget::kQ, products[0].y, products[0].y_stride},
                                     {LoraTarget::kK, k_.data(), s.kv_dim},
                                     {LoraTarget::kV, v_.data(), s.kv_dim}};
  matmul_with_lora(std::span(products, n_products), lora_outputs, layer_index(w), batch, nullptr,
                   n_tokens, packed_normed_, pool);
  if (s.own_kv && w.wv.rows == 0) std::copy_n(k_.data(), n_tokens * s.kv_dim, v_.data());
  if (gated) split_query_gate(n_tokens);
  add_bias(q_.data(), w.bq, n_tokens);
  add_bias(k_.data(), w.bk, n_tokens);
  add_bias(v_.data(), w.bv, n_tokens);
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
  if (c.traits.learned_positions) return;  // BERT: positions are in the embedding
  const int64_t n_pairs = s.rope->n_rot() / 2;
  for (int64_t t = 0; t < n_tokens; ++t) {
    const float* cos = s.cos + t * n_pairs;
    const float* sin = s.sin + t * n_pairs;
    s.rope->rotate(q_.data() + t * s.q_dim, c.n_heads, s.head_dim, c.traits.rope_layout, cos, sin);
    if (s.own_kv) {
      s.rope->rotate(k_.data() + t * s.kv_dim, s.kv_heads, s.head_dim, c.traits.rope_layout, cos,
                     sin);
    }
  }
}

void ForwardPass::split_query_gate(int64_t n_tokens) {
  const int64_t head_dim = config_.head_dim;
  for (int64_t t = 0; t < n_tokens; ++t) {
    for (int64_t h = 0; h < config_.n_heads; ++h) {
      const float* both = q_gate_.data() + (t * config_.n_heads + h) * 2 * head_dim;
      const int64_t at = t * config_.q_dim() + h * head_dim;
      std::copy_n(both, head_dim, q_.data() + at);
      std::copy_n(both + head_dim, head_dim, attn_gate_.data() + at);
    }
  }
}

void ForwardPass::apply_output_gate() {
  const int64_t n = n_rows_ * config_.q_dim();
  for (int64_t i = 0; i < n; ++i) attended_[i] *= 1.0f / (1.0f + std::exp(-attn_gate_[i]));
}

// llama.cpp's rotation of a quantized cache (kernels/ops_hadamard.h), so
// that keys and values round as they do there: when every attention layer
// has one head size, a multiple of 64, quantized keys turn (with the
// queries) by H over the largest power of two dividing it, quantized
// values (and the attention's output, back) by H_64.
ForwardPass::KvRotation ForwardPass::kv_rotation(KvCache::Types types) const {
  KvRotation rotation;
  if (uniform_head_dim_ <= 0 || uniform_head_dim_ % 64 != 0) return rotation;
  if (types.keys != kernels::ElementType::kF16) {
    rotation.keys = uniform_head_dim_ & -uniform_head_dim_;
  }
  if (types.values != kernels::ElementType::kF16) rotation.values = 64;
  return rotation;
}

void ForwardPass::rotate_for_cache(const AttentionShape& s, KvRotation rotation, int64_t n_tokens) {
  if (rotation.keys > 0) {
    kernels::hadamard_rotate(q_.data(), n_tokens * s.q_dim, rotation.keys);
    if (s.own_kv) kernels::hadamard_rotate(k_.data(), n_tokens * s.kv_dim, rotation.keys);
  }
  if (rotation.values > 0 && s.own_kv) {
    kernels::hadamard_rotate(v_.data(), n_tokens * s.kv_dim, rotation.values);
  }
}

void ForwardPass::store_kv(const AttentionShape& s, int64_t n_tokens, KvCache& cache) {
  const int64_t head_dim = s.head_dim, kv_layer = s.kv_layer;
  const int64_t block_size = cache.block_size();
  const KvCache::Types types = cache.types();
  const kernels::PackRowFn to_f16 = kernels::active_kernels().pack_row(kernels::ElementType::kF16);
  const bool f16_keys = types.keys == kernels::ElementType::kF16;
  if (f16_keys) to_f16(k_.data(), k_f16_.data(), n_tokens * s.kv_dim);
  for (int64_t t = 0; t < n_tokens; ++t) {
    const KvCache::Cell cell = placements_[t].cell;
    for (int64_t h = 0; h < s.kv_heads; ++h) {
      const int64_t first = t * s.kv_dim + h * head_dim;
      // Keys go in dimension-major (see KvCache), values position-major.
      if (f16_keys) {
        uint16_t* k_tile = cache.keys(kv_layer, cell.block, h) + cell.offset;
        for (int64_t d = 0; d < head_dim; ++d) k_tile[d * block_size] = k_f16_[first + d];
      } else {
        kernels::store_key(types.keys, k_.data() + first, head_dim, block_size, cell.offset,
                           cache.key_tile(kv_layer, cell.block, h));
      }
      if (types.values == kernels::ElementType::kF16) {
        to_f16(v_.data() + first, cache.values(kv_layer, cell.block, h) + cell.offset * head_dim,
               head_dim);
      } else {
        kernels::store_value(types.values, v_.data() + first, head_dim, cell.offset,
                             cache.value_tile(kv_layer, cell.block, h));
      }
    }
  }
}

namespace {

// A worker's buffer for widened tiles: kept between steps, so that a
// quantized cache allocates nothing per token.
std::vector<uint16_t>& widened_tile(int which, size_t elements) {
  thread_local std::vector<uint16_t> buffers[2];
  std::vector<uint16_t>& buffer = buffers[which];
  if (buffer.size() < elements) buffer.resize(elements);
  return buffer;
}

// A run of cached positions as the F16 attention kernel reads it: a
// quantized tile is widened into a buffer of the worker's own first.
class KvRunReader {
 public:
  KvRunReader(const KvCache& cache, int64_t layer, int64_t head_dim)
      : cache_(cache), layer_(layer), head_dim_(head_dim) {
    const KvCache::Types types = cache.types();
    if (types.keys != kernels::ElementType::kF16) {
      widen_keys_ = kernels::widen_keys_fn(types.keys);
      key_buffer_ = widened_tile(0, size_t(head_dim * cache.block_size())).data();
    }
    if (types.values != kernels::ElementType::kF16) {
      widen_values_ = kernels::widen_values_fn(types.values);
      value_buffer_ = widened_tile(1, size_t(head_dim * cache.block_size())).data();
    }
  }

  // Keys of positions [offset, ...) of a block, with a stride of block_size.
  const uint16_t* keys(int32_t block, int64_t head, int64_t offset) {
    if (widen_keys_ == nullptr) return cache_.keys(layer_, block, head) + offset;
    widen_keys_(cache_.key_tile(layer_, block, head), head_dim_, cache_.block_size(), key_buffer_);
    return key_buffer_ + offset;
  }
  // Values of positions [offset, offset + count) of a block.
  const uint16_t* values(int32_t block, int64_t head, int64_t offset, int64_t count) {
    if (widen_values_ == nullptr) return cache_.values(layer_, block, head) + offset * head_dim_;
    widen_values_(cache_.value_tile(layer_, block, head), head_dim_, offset, count, value_buffer_);
    return value_buffer_ + offset * head_dim_;
  }

 private:
  const KvCache& cache_;
  int64_t layer_;
  int64_t head_dim_;
  kernels::WidenKeysFn widen_keys_ = nullptr;
  kernels::WidenValuesFn widen_values_ = nullptr;
  uint16_t* key_buffer_ = nullptr;
  uint16_t* value_buffer_ = nullptr;
};

}  // namespace

// Each entry's query heads attend to its sequence's positions up to its
// own (in a sliding-window layer, the last `window` of them; in an
// encoder, all of them), one task per (entry, KV head) so the heads
// sharing a KV head read its keys and values once. The batch's keys are
// already in the cache, so a prompt's tokens see each other causally and
// never another sequence's; an encoder's sequence is in the batch whole.
void ForwardPass::attend(const AttentionShape& s, const float* sinks, const Batch& batch,
                         const KvCache& cache, ThreadPool& pool) {
  const ModelConfig& c = config_;
  const int64_t group = c.n_heads / s.kv_heads;
  const int64_t head_dim = s.head_dim, kv_layer = s.kv_layer;
  const int64_t n_tasks = n_rows_ * s.kv_heads;
  const int64_t block_size = cache.block_size();
  const int64_t grain = std::max<int64_t>(1, n_tasks / (8 * pool.size()));
  pool.parallel_for(n_tasks, grain, [&](int64_t begin, int64_t end) {
    std::array<kernels::AttentionState, kMaxGroupSize> states;
    KvRunReader run(cache, kv_layer, head_dim);
    for (int64_t task = begin; task < end; ++task) {
      const int64_t row = task / s.kv_heads, kv_head = task % s.kv_heads;
      const int64_t t = rows_[row];  // the entry this row of q belongs to
      const int64_t first = row * s.q_dim + kv_head * group * head_dim;
      const float* q = q_.data() + first;
      float* out = attended_.data() + first;
      const BatchEntry& entry = batch.entries()[t];
      const int64_t n_positions =
          c.causal ? entry.position + 1 : cache.sequence_length(entry.sequence);
      const int64_t from = s.window > 0 ? std::max<int64_t>(0, n_positions - s.window) : 0;
      const std::vector<int32_t>& blocks = *placements_[t].blocks;
      for (int64_t h = 0; h < group; ++h) {
        kernels::attention_begin(states[h], out + h * head_dim, head_dim);
      }
      for (int64_t start = from; start < n_positions;) {
        // Keys are dimension-major with a stride of block_size, so a run
        // that starts inside a block starts at an offset in both tiles.
        const int64_t b = start / block_size, offset = start % block_size;
        const int64_t count = std::min(block_size - offset, n_positions - start);
        kernels::attention_accumulate(q, group, run.keys(blocks[b], kv_head, offset), block_size,
                                      run.values(blocks[b], kv_head, offset, count), count,
                                      head_dim, s.scale, states.data(), out);
        start += count;
      }
      for (int64_t h = 0; h < group; ++h) {
        if (sinks != nullptr) {
          const float sink = sinks[kv_head * group + h];
          kernels::attention_fold_sink(states[h], out + h * head_dim, head_dim, sink);
        }
        kernels::attention_end(states[h], out + h * head_dim, head_dim);
      }
    }
  });
}

void ForwardPass::feed_forward_block(const LayerWeights& w, int64_t n_tokens, ThreadPool& pool,
                                     const Batch* batch) {
  const ModelConfig& c = config_;
  const bool mixture = !w.expert_gate.empty();
  if (mixture && c.traits.gemma) return gemma_mixture_block(w, n_tokens, pool);
  kernels::rms_norm(x_.data(), w.ffn_norm.data(), normed_.data(), n_tokens, c.n_embd, c.rms_eps);
  packed_normed_.reset(normed_.data(), n_tokens, c.n_embd);
  if (mixture) {
    experts_.run(w, normed_.data(), n_tokens, packed_normed_, routed_.data(), pool);
    if (!c.traits.shared_expert) {
      add_in_place(x_.data(), routed_.data(), n_tokens * c.n_embd);
      return;
    }
    gate_shared_expert(w, n_tokens);
  }
  dense_feed_forward(w, n_tokens, pool, mixture ? nullptr : batch);  // or a mixture's shared expert
  if (!w.ffn_post_norm.empty()) {
    kernels::rms_norm(normed_.data(), w.ffn_post_norm.data(), normed_.data(), n_tokens, c.n_embd,
                      c.rms_eps);
  }
  if (!mixture) {
    add_in_place(x_.data(), normed_.data(), n_tokens * c.n_embd);
    return;
  }
  for (int64_t t = 0; t < n_tokens; ++t) {
    float* x = x_.data() + t * c.n_embd;
    const float* shared = normed_.data() + t * c.n_embd;
    const float* routed = routed_.data() + t * c.n_embd;
    for (int64_t d = 0; d < c.n_embd; ++d) x[d] += routed[d] + shared_scale_[t] * shared[d];
  }
}

// normed_ <- Wdown act(Wgate normed_) * (Wup normed_), normed_ packed
// already; with the batch's LoRA deltas when it is given.
void ForwardPass::dense_feed_forward(const LayerWeights& w, int64_t n_tokens, ThreadPool& pool,
                                     const Batch* batch) {
  const ModelConfig& c = config_;
  const int64_t layer = layer_index(w);
  const kernels::MatmulProduct products[] = {
      packed_normed_.product(w.gate, gate_.data(), c.n_ff, pool),
      packed_normed_.product(w.up, up_.data(), c.n_ff, pool)};
  const LoraOutput lora_outputs[] = {{LoraTarget::kGate, gate_.data(), c.n_ff},
                                     {LoraTarget::kUp, up_.data(), c.n_ff}};
  matmul_with_lora(products, lora_outputs, layer, batch, rows_.data(), n_tokens, packed_normed_,
                   pool);
  gate_and_pack(w.down, n_tokens,
                c.traits.gemma ? HiddenActivation::kGeluGated : HiddenActivation::kSwiGLU, pool);
  // gate_ holds the activated hidden rows the down projection reads.
  lora_hidden_.reset(gate_.data(), n_tokens, c.n_ff);
  const kernels::MatmulProduct down[] = {{&w.down, &packed_hidden_, normed_.data(), c.n_embd}};
  const LoraOutput lora_down[] = {{LoraTarget::kDown, normed_.data(), c.n_embd}};
  matmul_with_lora(down, lora_down, layer, batch, rows_.data(), n_tokens, lora_hidden_, pool);
}

// Gemma 4's mixture member: the dense feed-forward and the experts side by
// side on the same residual, each normed before and after, their sum
// normed again. The router reads the plainly normed residual, scaled.
void ForwardPass::gemma_mixture_block(const LayerWeights& w, int64_t n_tokens, ThreadPool& pool) {
  const ModelConfig& c = config_;
  const int64_t n = n_tokens * c.n_embd;
  kernels::rms_norm(x_.data(), w.experts_norm.data(), experts_in_.data(), n_tokens, c.n_embd,
                    c.rms_eps);
  kernels::rms_norm(x_.data(), ones_.data(), router_in_.data(), n_tokens, c.n_embd, c.rms_eps);
  const float scale = 1.0f / std::sqrt(float(c.n_embd));
  for (int64_t t = 0; t < n_tokens; ++t) {
    float* r = router_in_.data() + t * c.n_embd;
    for (int64_t d = 0; d < c.n_embd; ++d) r[d] *= scale * w.router_input_scale[d];
  }
  packed_router_.reset(router_in_.data(), n_tokens, c.n_embd);
  experts_.run(w, experts_in_.data(), n_tokens, packed_router_, routed_.data(), pool);
  kernels::rms_norm(routed_.data(), w.experts_post_norm.data(), routed_.data(), n_tokens, c.n_embd,
                    c.rms_eps);
  kernels::rms_norm(x_.data(), w.ffn_norm.data(), normed_.data(), n_tokens, c.n_embd, c.rms_eps);
  packed_normed_.reset(normed_.data(), n_tokens, c.n_embd);
  dense_feed_forward(w, n_tokens, pool);
  kernels::rms_norm(normed_.data(), w.dense_post_norm.data(), normed_.data(), n_tokens, c.n_embd,
                    c.rms_eps);
  for (int64_t i = 0; i < n; ++i) normed_[i] += routed_[i];
  kernels::rms_norm(normed_.data(), w.ffn_post_norm.data(), normed_.data(), n_tokens, c.n_embd,
                    c.rms_eps);
  add_in_place(x_.data(), normed_.data(), n);
}

// sigmoid(g . x) per row, read before the shared expert's output takes
// the place of x in `normed_`.
void ForwardPass::gate_shared_expert(const LayerWeights& w, int64_t n_tokens) {
  const int64_t n = config_.n_embd;
  for (int64_t t = 0; t < n_tokens; ++t) {
    const float* x = normed_.data() + t * n;
    float dot = 0.0f;
    for (int64_t d = 0; d < n; ++d) dot += w.shared_expert_gate[d] * x[d];
    shared_scale_[t] = 1.0f / (1.0f + std::exp(-dot));
  }
}

// The gated unit and the packing of its result for the down projection, in
// one region: each piece of a hidden row is packed by the thread that has
// just computed it, where packing after the region ran on the calling
// thread alone while the others waited. kGelu reads only gate_ (BERT's up
// projection there), plus `bias`.
void ForwardPass::gate_and_pack(const kernels::WeightMatrix& down, int64_t n_tokens,
                                HiddenActivation activation, ThreadPool& pool,
                                const std::vector<float>& bias) {
  const int64_t n_ff = config_.n_ff;
  packed_hidden_.prepare(n_tokens, n_ff, down.type);
  const int64_t pieces = packed_hidden_.pieces_per_row();
  const int64_t n_tasks = n_tokens * pieces;
  const int64_t grain = std::max<int64_t>(1, n_tasks / (8 * pool.size()));
  pool.parallel_for(n_tasks, grain, [&](int64_t begin, int64_t end) {
    for (int64_t task = begin; task < end; ++task) {
      const int64_t t = task / pieces, piece = task % pieces;
      float* row = gate_.data() + t * n_ff;
      const int64_t first = piece * kernels::PackedActivations::kPieceCols;
      const int64_t n = std::min(kernels::PackedActivations::kPieceCols, n_ff - first);
      if (activation == HiddenActivation::kSwiGLU) {
        kernels::swiglu(row + first, up_.data() + t * n_ff + first, row + first, n);
      } else if (activation == HiddenActivation::kGeluGated) {  // Gemma: GELU(gate) * up
        kernels::gelu(row + first, row + first, n);
        const float* up = up_.data() + t * n_ff + first;
        for (int64_t i = 0; i < n; ++i) row[first + i] *= up[i];
      } else {
        if (!bias.empty()) add_in_place(row + first, bias.data() + first, n);
        kernels::gelu(row + first, row + first, n);
      }
      packed_hidden_.pack_piece(row, t, piece);
    }
  });
}

// After the last layer the residual stream holds exactly the rows that
// want logits, in entry order; or, when the batch keeps hidden states,
// every entry, whose normed rows are kept and those wanting logits taken.
Logits ForwardPass::output(const Batch& batch, const std::vector<float>& norm,
                           const kernels::WeightMatrix& head, ThreadPool& pool) {
  const int64_t n_embd = config_.n_embd;
  int64_t n_rows = n_rows_;
  if (batch.keeps_hidden()) {
    kernels::rms_norm(x_.data(), norm.data(), hidden_.data(), n_rows, n_embd, config_.rms_eps);
    n_rows = 0;
    for (const BatchEntry& e : batch.entries()) {
      if (e.wants_logits) {
        const int64_t t = &e - batch.entries().data();
        std::copy_n(hidden_.data() + t * n_embd, n_embd, final_.data() + n_rows++ * n_embd);
      }
    }
  } else {
    kernels::rms_norm(x_.data(), norm.data(), final_.data(), n_rows, n_embd, config_.rms_eps);
  }
  if (n_rows > 0) {
    packed_final_.reset(final_.data(), n_rows, n_embd);
    kernels::matmul(head, packed_final_.for_weight(head, pool), logits_.data(), config_.n_vocab,
                    pool);
  }
  soft_cap(n_rows);
  return Logits{logits_.data(), n_rows, config_.n_vocab,
                batch.keeps_hidden() ? hidden_.data() : nullptr};
}

void ForwardPass::soft_cap(int64_t n_rows) {
  const float cap = config_.gemma.final_softcap;
  if (cap <= 0.0f) return;
  for (int64_t i = 0; i < n_rows * config_.n_vocab; ++i) {
    logits_[i] = cap * std::tanh(logits_[i] / cap);
  }
}

}  // namespace ingot::model
