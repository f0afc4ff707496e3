#include "model/forward/parallel_mixture_block.h"

#include <cmath>

#include "kernels/ops_norm.h"
#include "model/row_math.h"

namespace ingot::model {

void ParallelMixtureBlock::run(int64_t layer, Step& step) {
  const LayerWeights& w = layers_[size_t(layer)];
  Residual& r = step.residual;
  const int64_t n_embd = config_.n_embd, n = r.n_rows * n_embd;
  const float eps = config_.rms_eps;
  run_experts(w, step);
  kernels::rms_norm(r.x.data(), w.ffn_norm.data(), r.normed.data(), r.n_rows, n_embd, eps);
  r.packed_normed.reset(r.normed.data(), r.n_rows, n_embd);
  dense_.run(w, layer, r.packed_normed, r.normed.data(), step);
  kernels::rms_norm(r.normed.data(), w.dense_post_norm.data(), r.normed.data(), r.n_rows, n_embd,
                    eps);
  add_in_place(r.normed.data(), routed_.data(), n);
  kernels::rms_norm(r.normed.data(), w.ffn_post_norm.data(), r.normed.data(), r.n_rows, n_embd,
                    eps);
  add_in_place(r.x.data(), r.normed.data(), n);
}

// routed_ <- post_e(Experts(n_e(x))).
void ParallelMixtureBlock::run_experts(const LayerWeights& w, Step& step) {
  const Residual& r = step.residual;
  const int64_t n_embd = config_.n_embd, n = r.n_rows * n_embd;
  const float eps = config_.rms_eps;
  grow(experts_in_, n);
  grow(router_in_, n);
  grow(routed_, n);
  kernels::rms_norm(r.x.data(), w.experts_norm.data(), experts_in_.data(), r.n_rows, n_embd, eps);
  kernels::rms_norm(r.x.data(), ones_.data(), router_in_.data(), r.n_rows, n_embd, eps);
  scale_router_input(w, r.n_rows);
  packed_router_.reset(router_in_.data(), r.n_rows, n_embd);
  experts_.run(w, experts_in_.data(), r.n_rows, packed_router_, routed_.data(), step.pool);
  kernels::rms_norm(routed_.data(), w.experts_post_norm.data(), routed_.data(), r.n_rows, n_embd,
                    eps);
}

void ParallelMixtureBlock::scale_router_input(const LayerWeights& w, int64_t n_rows) {
  const int64_t n_embd = config_.n_embd;
  const float scale = 1.0f / std::sqrt(float(n_embd));
  for (int64_t t = 0; t < n_rows; ++t) {
    float* row = router_in_.data() + t * n_embd;
    for (int64_t d = 0; d < n_embd; ++d) row[d] *= scale * w.router_input_scale[size_t(d)];
  }
}

}  // namespace ingot::model
