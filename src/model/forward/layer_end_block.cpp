#include "model/forward/layer_end_block.h"

namespace ingot::model {

void LayerEndBlock::prepare(Step& step) {
  if (per_layer_.enabled()) per_layer_.prepare(step.batch, step.residual.x.data(), step.pool);
}

void LayerEndBlock::run(int64_t layer, Step& step) {
  const LayerWeights& w = layers_[size_t(layer)];
  Residual& r = step.residual;
  if (per_layer_.enabled()) {
    per_layer_.apply(w, layer, r.x.data(), r.n_rows, r.rows.data(), step.pool);
  }
  const float scale = canvas_ ? w.canvas_output_scale : w.output_scale;
  if (scale == 1.0f) return;
  for (int64_t i = 0; i < r.n_rows * config_.n_embd; ++i) r.x[size_t(i)] *= scale;
}

}  // namespace ingot::model
