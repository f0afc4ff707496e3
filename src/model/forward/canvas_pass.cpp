#include "model/forward/canvas_pass.h"

#include <string>

#include "model/forward/token_embedding.h"

namespace ingot::model {

CanvasPass::CanvasPass(const ModelConfig& config, const ModelWeights& weights)
    : config_(config),
      weights_(weights),
      plan_(config, weights, /*adapted=*/nullptr, /*canvas=*/true),
      input_(config, weights),
      head_(config) {}

Result<Logits> CanvasPass::run(const Batch& batch, std::span<const float* const> previous,
                               KvCache& cache, ThreadPool& pool) {
  if (batch.empty()) return head_.none();
  if (int64_t(previous.size()) != batch.size()) {
    return invalid_argument("a canvas step needs one previous row (or none) per entry");
  }
  INGOT_RETURN_IF_ERROR(check_canvases(batch, cache));
  INGOT_RETURN_IF_ERROR(placement_.place(batch, config_.n_vocab, cache));
  residual_.start(batch.size(), config_.n_embd);
  embed_tokens(batch, weights_.token_embedding, config_, residual_.x.data());
  Step step{batch, cache, pool, placement_, residual_};
  input_.run(previous, step);
  if (plan_.attention() != nullptr) plan_.attention()->prepare(batch);
  run_layers(step);
  drop_canvases(batch, cache);
  return head_.run(batch, residual_, weights_.output_norm, weights_.output, pool);
}

// Each sequence's entries: canvas_length of them in a row, at the
// positions that follow its cache, all wanting logits.
Status CanvasPass::check_canvases(const Batch& batch, const KvCache& cache) const {
  const int64_t canvas = config_.diffusion.canvas_length;
  const std::vector<BatchEntry>& entries = batch.entries();
  if (batch.size() % canvas != 0) {
    return invalid_argument("a canvas step's batch must hold whole canvases of " +
                            std::to_string(canvas));
  }
  for (size_t first = 0; first < entries.size(); first += size_t(canvas)) {
    const SequenceId sequence = entries[first].sequence;
    const int64_t start = cache.sequence_length(sequence);
    for (int64_t i = 0; i < canvas; ++i) {
      const BatchEntry& e = entries[first + size_t(i)];
      if (e.sequence != sequence || e.position != start + i || !e.wants_logits) {
        return invalid_argument(
            "a canvas's entries must follow their sequence's cache in order, each wanting "
            "logits");
      }
    }
  }
  return {};
}

void CanvasPass::run_layers(Step& step) {
  for (int64_t layer = 0; layer < config_.n_layers; ++layer) {
    const LayerBlocks& blocks = plan_.layer(layer);
    blocks.mixer->run(layer, step);
    blocks.feed_forward->run(layer, step);
    if (blocks.end != nullptr) blocks.end->run(layer, step);
  }
}

void CanvasPass::drop_canvases(const Batch& batch, KvCache& cache) {
  const int64_t canvas = config_.diffusion.canvas_length;
  const std::vector<BatchEntry>& entries = batch.entries();
  for (size_t first = 0; first < entries.size(); first += size_t(canvas)) {
    cache.truncate(entries[first].sequence, entries[first].position);
  }
}

}  // namespace ingot::model
