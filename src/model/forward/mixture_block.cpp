#include "model/forward/mixture_block.h"

#include <cmath>

#include "kernels/ops_norm.h"
#include "model/row_math.h"

namespace ingot::model {

void MixtureBlock::run(int64_t layer, Step& step) {
  const LayerWeights& w = layers_[size_t(layer)];
  Residual& r = step.residual;
  const int64_t n_embd = config_.n_embd;
  grow(routed_, r.n_rows * n_embd);
  kernels::rms_norm(r.x.data(), w.ffn_norm.data(), r.normed.data(), r.n_rows, n_embd,
                    config_.rms_eps);
  r.packed_normed.reset(r.normed.data(), r.n_rows, n_embd);
  experts_.run(w, r.normed.data(), r.n_rows, r.packed_normed, routed_.data(), step.pool);
  if (!config_.traits.shared_expert) {
    add_in_place(r.x.data(), routed_.data(), r.n_rows * n_embd);
    return;
  }
  add_shared(w, step);
}

// The gate reads the normed rows before the shared expert's output takes
// their place.
void MixtureBlock::add_shared(const LayerWeights& w, Step& step) {
  Residual& r = step.residual;
  const int64_t n_embd = config_.n_embd;
  gate_shared_expert(w, r.normed.data(), r.n_rows);
  shared_.run(w, /*layer=*/-1, r.packed_normed, r.normed.data(), step);
  if (!w.ffn_post_norm.empty()) {
    kernels::rms_norm(r.normed.data(), w.ffn_post_norm.data(), r.normed.data(), r.n_rows, n_embd,
                      config_.rms_eps);
  }
  for (int64_t t = 0; t < r.n_rows; ++t) {
    float* x = r.x.data() + t * n_embd;
    const float* shared = r.normed.data() + t * n_embd;
    const float* routed = routed_.data() + t * n_embd;
    for (int64_t d = 0; d < n_embd; ++d) x[d] += routed[d] + shared_scale_[size_t(t)] * shared[d];
  }
}

// sigmoid(g . x) per row of the normed input.
void MixtureBlock::gate_shared_expert(const LayerWeights& w, const float* normed, int64_t n_rows) {
  const int64_t n = config_.n_embd;
  grow(shared_scale_, n_rows);
  for (int64_t t = 0; t < n_rows; ++t) {
    const float* x = normed + t * n;
    float dot = 0.0f;
    for (int64_t d = 0; d < n; ++d) dot += w.shared_expert_gate[size_t(d)] * x[d];
    shared_scale_[size_t(t)] = 1.0f / (1.0f + std::exp(-dot));
  }
}

}  // namespace ingot::model
