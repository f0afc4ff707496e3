#include "model/per_layer_embedding.h"

#include <cmath>

#include "kernels/dequantize.h"
#include "kernels/matmul.h"
#include "kernels/ops_activation.h"
#include "kernels/ops_norm.h"
#include "model/row_math.h"

namespace ingot::model {

void PerLayerEmbedding::prepare(const Batch& batch, const float* x, ThreadPool& pool) {
  const int64_t width = config_.gemma.per_layer_embedding;
  const int64_t all = width * config_.n_layers;
  const int64_t n_tokens = batch.size();
  grow(inputs_, n_tokens * all);
  grow(row_, all);
  packed_x_.reset(x, n_tokens, config_.n_embd);
  const kernels::WeightMatrix& proj = weights_.per_layer_model_proj;
  kernels::matmul(proj, packed_x_.for_weight(proj, pool), inputs_.data(), all, pool);
  const float projection_scale = 1.0f / std::sqrt(float(config_.n_embd));
  const float table_scale = std::sqrt(float(width));
  const float input_scale = 1.0f / std::sqrt(2.0f);
  const kernels::WeightMatrix& table = weights_.per_layer_embedding;
  for (int64_t t = 0; t < n_tokens; ++t) {
    float* in = inputs_.data() + t * all;
    for (int64_t i = 0; i < all; ++i) in[i] *= projection_scale;
    kernels::rms_norm(in, weights_.per_layer_proj_norm.data(), in, config_.n_layers, width,
                      config_.rms_eps);
    const auto* bytes = static_cast<const uint8_t*>(table.data) +
                        batch.entries()[size_t(t)].token * table.row_stride;
    kernels::dequantize_row(table.type, bytes, row_.data(), all);
    for (int64_t i = 0; i < all; ++i) in[i] = (in[i] + row_[i] * table_scale) * input_scale;
  }
}

void PerLayerEmbedding::apply(const LayerWeights& w, int64_t layer, float* x, int64_t n_rows,
                              const int64_t* rows, ThreadPool& pool) {
  const int64_t width = config_.gemma.per_layer_embedding;
  const int64_t all = width * config_.n_layers;
  const int64_t n_embd = config_.n_embd;
  grow(gated_, n_rows * width);
  grow(projected_, n_rows * n_embd);
  packed_x_.reset(x, n_rows, n_embd);
  kernels::matmul(w.per_layer_gate, packed_x_.for_weight(w.per_layer_gate, pool), gated_.data(),
                  width, pool);
  for (int64_t r = 0; r < n_rows; ++r) {
    float* g = gated_.data() + r * width;
    kernels::gelu(g, g, width);
    const float* in = inputs_.data() + rows[r] * all + layer * width;
    for (int64_t i = 0; i < width; ++i) g[i] *= in[i];
  }
  packed_gated_.pack(gated_.data(), n_rows, width, w.per_layer_proj.type, pool);
  kernels::matmul(w.per_layer_proj, packed_gated_, projected_.data(), n_embd, pool);
  kernels::rms_norm(projected_.data(), w.per_layer_post_norm.data(), projected_.data(), n_rows,
                    n_embd, config_.rms_eps);
  for (int64_t i = 0; i < n_rows * n_embd; ++i) x[i] += projected_[i];
}

}  // namespace ingot::model
