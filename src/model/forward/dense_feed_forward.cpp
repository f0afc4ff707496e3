#include "model/forward/dense_feed_forward.h"

#include <algorithm>

#include "kernels/ops_activation.h"
#include "model/row_math.h"

namespace ingot::model {

void DenseFeedForward::run(const LayerWeights& w, int64_t layer, PackedInput& input, float* out,
                           Step& step) {
  const Residual& r = step.residual;
  const int64_t n_ff = config_.n_ff, n_embd = config_.n_embd;
  grow(gate_, r.n_rows * n_ff);
  grow(up_, r.n_rows * n_ff);
  project_hidden(w, layer, input, step);
  activate_and_pack(w, r.n_rows, step.pool);
  lora_hidden_.reset(gate_.data(), r.n_rows, n_ff);
  const kernels::MatmulProduct down[] = {{&w.down, &packed_hidden_, out, n_embd}};
  const LoraOutput lora_down[] = {{LoraTarget::kDown, out, n_embd}};
  run_projections(adapted_, down, lora_down, layer, step.batch, r.rows.data(), r.n_rows,
                  lora_hidden_, step.pool);
  add_bias(out, w.down_bias, r.n_rows);
}

// Without a gate, the up projection goes where the gate's would.
void DenseFeedForward::project_hidden(const LayerWeights& w, int64_t layer, PackedInput& input,
                                      Step& step) {
  const Residual& r = step.residual;
  const int64_t n_ff = config_.n_ff;
  if (w.gate.rows == 0) {
    const kernels::MatmulProduct up[] = {input.product(w.up, gate_.data(), n_ff, step.pool)};
    return kernels::matmul_all(up, step.pool);
  }
  const kernels::MatmulProduct products[] = {input.product(w.gate, gate_.data(), n_ff, step.pool),
                                             input.product(w.up, up_.data(), n_ff, step.pool)};
  const LoraOutput lora_outputs[] = {{LoraTarget::kGate, gate_.data(), n_ff},
                                     {LoraTarget::kUp, up_.data(), n_ff}};
  run_projections(adapted_, products, lora_outputs, layer, step.batch, r.rows.data(), r.n_rows,
                  input, step.pool);
}

// The activation and the packing of its result for the down projection,
// in one region: each piece of a hidden row is packed by the thread that
// has just computed it, where packing after the region ran on the calling
// thread alone while the others waited.
void DenseFeedForward::activate_and_pack(const LayerWeights& w, int64_t n_rows, ThreadPool& pool) {
  const int64_t n_ff = config_.n_ff;
  packed_hidden_.prepare(n_rows, n_ff, w.down.type);
  const int64_t pieces = packed_hidden_.pieces_per_row();
  const int64_t n_tasks = n_rows * pieces;
  const int64_t grain = std::max<int64_t>(1, n_tasks / (8 * pool.size()));
  pool.parallel_for(n_tasks, grain, [&](int64_t begin, int64_t end) {
    for (int64_t task = begin; task < end; ++task) {
      const int64_t t = task / pieces, piece = task % pieces;
      float* row = gate_.data() + t * n_ff;
      const int64_t first = piece * kernels::PackedActivations::kPieceCols;
      const int64_t n = std::min(kernels::PackedActivations::kPieceCols, n_ff - first);
      activate(w, row, up_.data() + t * n_ff, first, n);
      packed_hidden_.pack_piece(row, t, piece);
    }
  });
}

// Values [first, first + n) of one hidden row.
void DenseFeedForward::activate(const LayerWeights& w, float* hidden, const float* up,
                                int64_t first, int64_t n) const {
  float* h = hidden + first;
  const bool gelu = config_.traits.activation == Activation::kGELU;
  if (w.gate.rows == 0) {
    if (!w.up_bias.empty()) add_in_place(h, w.up_bias.data() + first, n);
    return gelu ? kernels::gelu(h, h, n) : kernels::silu(h, h, n);
  }
  if (!gelu) return kernels::swiglu(h, up + first, h, n);
  kernels::gelu(h, h, n);
  for (int64_t i = 0; i < n; ++i) h[i] *= up[first + i];
}

}  // namespace ingot::model
