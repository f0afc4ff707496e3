#pragma once
// Gemma 4's per-layer token embeddings. Each token has, besides its
// embedding, a small input for every layer:
//   in_l = (rms_norm(P x / sqrt(n_embd))_l + E[token]_l * sqrt(width)) / sqrt(2)
// with x the (scaled) embedding, P the model projection and E the per-layer
// table. After layer l's feed-forward the residual takes
//   x += rms_norm(W_proj (gelu(W_gate x) * in_l))
// (llama.cpp's graph for gemma4, which follows the reference model's).

#include <cstdint>
#include <vector>

#include "kernels/packed_activations.h"
#include "model/batch.h"
#include "model/model_config.h"
#include "model/packed_input.h"
#include "model/weights.h"
#include "util/thread_pool.h"

namespace ingot::model {

class PerLayerEmbedding {
 public:
  PerLayerEmbedding(const ModelConfig& config, const ModelWeights& weights)
      : config_(config), weights_(weights) {}

  bool enabled() const { return config_.gemma.per_layer_embedding > 0; }

  // Every layer's input for the batch's tokens; x is their embedding rows.
  void prepare(const Batch& batch, const float* x, ThreadPool& pool);

  // Adds layer `layer`'s term to the n_rows rows of x; row r is entry rows[r].
  void apply(const LayerWeights& w, int64_t layer, float* x, int64_t n_rows, const int64_t* rows,
             ThreadPool& pool);

 private:
  const ModelConfig& config_;
  const ModelWeights& weights_;
  std::vector<float> inputs_;     // [T][n_layers][width]
  std::vector<float> row_;        // one dequantized table row
  std::vector<float> gated_;      // [rows][width]
  std::vector<float> projected_;  // [rows][n_embd]
  PackedInput packed_x_;
  kernels::PackedActivations packed_gated_;
};

}  // namespace ingot::model
