#include "model/forward/linear_attention_block.h"

#include <algorithm>

#include "kernels/ops_norm.h"
#include "model/row_math.h"

namespace ingot::model {

void LinearAttentionBlock::prepare(const Batch& batch, KvCache& cache) {
  checkpoints_.clear();
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

void LinearAttentionBlock::run(int64_t layer, Step& step) {
  const LayerWeights& w = layers_[size_t(layer)];
  Residual& r = step.residual;
  const int64_t n_tokens = step.batch.size(), n_embd = config_.n_embd;
  kernels::rms_norm(r.x.data(), w.attn_norm.data(), r.normed.data(), n_tokens, n_embd,
                    config_.rms_eps);
  r.packed_normed.reset(r.normed.data(), n_tokens, n_embd);
  // The output lands in `normed`, packed already.
  linear_attention_.run(w, config_.kind_index[size_t(layer)], step.batch, r.packed_normed,
                        step.cache.recurrent(), checkpoints_, r.normed.data(), step.pool);
  add_in_place(r.x.data(), r.normed.data(), n_tokens * n_embd);
  if (step.drops_rows) r.keep_rows_wanting_logits(step.batch, n_embd);
}

void LinearAttentionBlock::finish(const Batch& batch, KvCache& cache) const {
  for (const BatchEntry& e : batch.entries()) {
    cache.recurrent().set_length(e.sequence, e.position + 1);
  }
}

}  // namespace ingot::model
