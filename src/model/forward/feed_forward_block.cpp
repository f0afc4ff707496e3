#include "model/forward/feed_forward_block.h"

#include "kernels/ops_norm.h"
#include "model/row_math.h"

namespace ingot::model {

void FeedForwardBlock::run(int64_t layer, Step& step) {
  const LayerWeights& w = layers_[size_t(layer)];
  Residual& r = step.residual;
  const int64_t n_embd = config_.n_embd;
  kernels::rms_norm(r.x.data(), w.ffn_norm.data(), r.normed.data(), r.n_rows, n_embd,
                    config_.rms_eps);
  r.packed_normed.reset(r.normed.data(), r.n_rows, n_embd);
  unit_.run(w, layer, r.packed_normed, r.normed.data(), step);
  if (!w.ffn_post_norm.empty()) {
    kernels::rms_norm(r.normed.data(), w.ffn_post_norm.data(), r.normed.data(), r.n_rows, n_embd,
                      config_.rms_eps);
  }
  add_in_place(r.x.data(), r.normed.data(), r.n_rows * n_embd);
}

}  // namespace ingot::model
