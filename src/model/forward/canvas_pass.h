#pragma once
// DiffusionGemma's decoder over canvases. A canvas is canvas_length tokens
// of one sequence at the positions right after its cached prefix (the
// prompt and the canvases committed before). Its input is
// model/forward/canvas_input.h's; each layer's attention sees the whole
// prefix (a sliding layer: the window reaching back from the canvas's first
// position) and the whole canvas both ways; each layer ends with its
// decoder scale; every position gets logits. The canvas's keys and values
// are cached for the pass and dropped after it, so the cache is left as it
// was: a canvas is only written for good by the causal pass once committed.

#include <span>

#include "model/batch.h"
#include "model/forward/canvas_input.h"
#include "model/forward/kv_placement.h"
#include "model/forward/layer_plan.h"
#include "model/forward/output_head.h"
#include "model/forward/residual.h"
#include "model/kv_cache.h"
#include "model/model_config.h"
#include "model/weights.h"
#include "util/status.h"
#include "util/thread_pool.h"

namespace ingot::model {

class CanvasPass {
 public:
  CanvasPass(const ModelConfig& config, const ModelWeights& weights);

  // `batch`: whole canvases, each sequence's entries together, every one
  // wanting logits. previous[t]: entry t's token probabilities at the step
  // before, or null on a canvas's first step (CanvasInput::run).
  Result<Logits> run(const Batch& batch, std::span<const float* const> previous, KvCache& cache,
                     ThreadPool& pool);

 private:
  Status check_canvases(const Batch& batch, const KvCache& cache) const;
  void run_layers(Step& step);
  void drop_canvases(const Batch& batch, KvCache& cache);

  const ModelConfig& config_;
  const ModelWeights& weights_;
  KvPlacement placement_;
  Residual residual_;
  LayerPlan plan_;
  CanvasInput input_;
  OutputHead head_;
};

}  // namespace ingot::model
