#include "model/forward/decoder_pass.h"

#include "model/forward/token_embedding.h"

namespace ingot::model {

DecoderPass::DecoderPass(const ModelConfig& config, const ModelWeights& weights)
    : config_(config), weights_(weights), plan_(config, weights, &adapted_), head_(config) {}

void DecoderPass::reset_rope() {
  if (plan_.attention() != nullptr) plan_.attention()->reset_rope();
}

Result<Logits> DecoderPass::run(const Batch& batch, KvCache& cache, ThreadPool& pool) {
  if (batch.empty()) return head_.none();
  INGOT_RETURN_IF_ERROR(placement_.place(batch, config_.n_vocab, cache));
  residual_.start(batch.size(), config_.n_embd);
  embed_tokens(batch, weights_.token_embedding, config_, residual_.x.data());
  Step step{batch, cache, pool, placement_, residual_};
  prepare_blocks(step);
  run_layers(step);
  finish_blocks(batch, cache);
  return head_.run(batch, residual_, weights_.output_norm, weights_.output, pool);
}

void DecoderPass::prepare_blocks(Step& step) {
  if (plan_.layer_end() != nullptr) plan_.layer_end()->prepare(step);
  if (plan_.attention() != nullptr) plan_.attention()->prepare(step.batch);
  if (plan_.linear_attention() != nullptr) {
    plan_.linear_attention()->prepare(step.batch, step.cache);
  }
}

// Only the last layer drops rows, so once they are gone no layer is left.
void DecoderPass::run_layers(Step& step) {
  for (int64_t layer = 0; layer < config_.n_layers; ++layer) {
    const LayerBlocks& blocks = plan_.layer(layer);
    step.drops_rows = layer + 1 == config_.n_layers && !step.batch.keeps_hidden();
    blocks.mixer->run(layer, step);
    if (residual_.n_rows == 0) continue;
    blocks.feed_forward->run(layer, step);
    if (blocks.end != nullptr) blocks.end->run(layer, step);
  }
}

void DecoderPass::finish_blocks(const Batch& batch, KvCache& cache) {
  if (plan_.linear_attention() != nullptr) plan_.linear_attention()->finish(batch, cache);
  if (!cache.trims_windows()) return;
  // Once per run of one sequence's entries (the engine keeps a sequence's
  // entries together); sliding again would change nothing.
  const std::vector<BatchEntry>& entries = batch.entries();
  for (size_t t = 0; t < entries.size(); ++t) {
    if (t + 1 == entries.size() || entries[t + 1].sequence != entries[t].sequence) {
      cache.slide_window(entries[t].sequence);
    }
  }
}

}  // namespace ingot::model
