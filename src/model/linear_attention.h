#pragma once
// One linear-attention layer of a hybrid model (Qwen3.5's gated delta net),
// over a batch of entries from any number of sequences:
//   [q k v] = conv(Wqkv x) then silu,  z = Wz x,
//   beta = sigmoid(Wbeta x),  g = softplus(Walpha x + dt_bias) * a,
//   q, k L2-normalized per head,  o = delta_rule(q, k, v, g, beta) per value head,
//   out = Wout (rms_norm(o) * silu(z))
// The convolution window and the delta-rule state of each sequence carry
// over between batches (RecurrentStates). A sequence's entries must come in
// position order within the batch; entries of other sequences may sit
// between them.

#include <cstdint>
#include <vector>

#include "model/batch.h"
#include "model/model_config.h"
#include "model/packed_input.h"
#include "model/recurrent_state.h"
#include "model/weights.h"
#include "util/thread_pool.h"

namespace ingot::model {

class LinearAttention {
 public:
  explicit LinearAttention(const ModelConfig& config) : config_(config) {}

  // Writes Wout(...) for every entry of `batch` into out ([T][n_embd]).
  // `input` holds the normed residual rows, packed by the caller's
  // PackedInput (the feed-forward block reuses it after this returns).
  // checkpoints[t], when not null, is entry t's checkpoint
  // (RecurrentStates::add_checkpoint): this layer's state after the entry
  // is copied there.
  void run(const LayerWeights& w, int64_t index, const Batch& batch, PackedInput& input,
           RecurrentStates& states, const std::vector<float*>& checkpoints, float* out,
           ThreadPool& pool);

 private:
  void resize(int64_t n_tokens);
  void convolve(const LayerWeights& w, int64_t n_tokens, ThreadPool& pool);
  void prepare_heads(const LayerWeights& w, int64_t n_tokens);
  void apply_delta_rule(int64_t n_tokens, ThreadPool& pool);
  int64_t run_end(int64_t first, int64_t n_tokens) const;
  void gate_output(const LayerWeights& w, int64_t n_tokens);

  const ModelConfig& config_;
  // Per entry, its sequence's window and state in this layer.
  std::vector<float*> windows_;
  std::vector<float*> states_;
  // Per entry, where its checkpoint keeps this layer's window and state, or null.
  std::vector<float*> window_copies_;
  std::vector<float*> state_copies_;
  std::vector<float> mixed_;  // [T][conv_channels]: projected, then convolved in place
  std::vector<float> z_;      // [T][value_dim]
  std::vector<float> beta_;   // [T][value_heads]
  std::vector<float> decay_;  // [T][value_heads]: alpha, then the log decay g
  std::vector<float> heads_;  // [T][value_dim]: the delta rule's output
  PackedInput packed_heads_;
};

}  // namespace ingot::model
