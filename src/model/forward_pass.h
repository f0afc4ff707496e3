#pragma once
// The forward pass shared by every supported architecture: for each layer,
//   h = x + Wo attention(rope(Wq n(x)), rope(Wk n(x)), Wv n(x))
//   x = h + Wdown (silu(Wgate n(h)) * Wup n(h))
// with n() an RMSNorm, then logits = Wout n(x) for the entries that want
// them. The whole batch goes through each matmul together, so B sequences
// decoding one token each cost one batched matmul per weight, not B.
//
// Buffers grow to the largest batch seen and are reused: no allocation per
// step once the batch sizes settle.

#include <array>
#include <vector>

#include "kernels/matmul.h"
#include "kernels/ops_attention.h"
#include "kernels/ops_rope.h"
#include "model/batch.h"
#include "model/expert_feed_forward.h"
#include "model/kv_cache.h"
#include "model/linear_attention.h"
#include "model/lora_adapter.h"
#include "model/lora_deltas.h"
#include "model/model_config.h"
#include "model/packed_input.h"
#include "model/per_layer_embedding.h"
#include "model/weights.h"
#include "util/status.h"
#include "util/thread_pool.h"

namespace ingot::model {

class ForwardPass {
 public:
  // Query heads per KV head that one attention task can hold state for.
  static constexpr int64_t kMaxGroupSize = 64;

  ForwardPass(const ModelConfig& config, const ModelWeights& weights);

  // Writes the batch's keys and values into `cache` and returns the logits
  // of the entries that want them. On error the cache is as it was.
  Result<Logits> run(const Batch& batch, KvCache& cache, ThreadPool& pool);

  // The multi-token-prediction block (weights.prediction) over `batch`:
  // entry t pairs its token with `hidden` row t, the trunk's final state
  // at the position before it. `cache` is the block's own (one layer).
  // The logits predict the token after each entry's successor; the batch
  // may keep hidden states, the block's own, for a next prediction.
  // Rebuilds the rotation from the config's RoPE (Model::prepare_for_context).
  void reset_rope() { rope_ = kernels::Rope(config_.rope); }

  Result<Logits> run_prediction(const Batch& batch, const float* hidden, KvCache& cache,
                                ThreadPool& pool);

 private:
  // An encoder's pass (forward_encoder.cpp): each sequence in the batch
  // whole, its hidden states returned; no logits.
  Result<Logits> run_encoder(const Batch& batch, KvCache& cache, ThreadPool& pool);
  Status check_encoder_batch(const Batch& batch) const;
  void embed_encoder(const Batch& batch);
  void encoder_layer(int64_t layer, const Batch& batch, KvCache& cache, ThreadPool& pool);
  void encoder_feed_forward(const LayerWeights& w, int64_t n_tokens, ThreadPool& pool);

  // One attention layer's shapes and choices (Gemma 4's differ by layer).
  struct AttentionShape {
    int64_t head_dim;
    int64_t q_dim;
    int64_t kv_heads;
    int64_t kv_dim;
    int64_t kv_layer;  // the KvCache layer it reads
    bool own_kv;       // and writes; else an earlier layer's
    int64_t window;    // positions each query sees, its own included; 0: all
    const kernels::Rope* rope;
    const float* cos;  // the batch's angles, rope->n_rot() / 2 per token
    const float* sin;
    kernels::ScoreScale scale{1.0f};  // and Gemma 2's score cap
  };
  AttentionShape attention_shape(int64_t layer) const;
  AttentionShape kind_shape(bool sliding) const;

  // Where each entry's keys and values go, and the blocks its attention reads.
  struct Placement {
    KvCache::Cell cell;
    const std::vector<int32_t>* blocks;
  };

  Status place(const Batch& batch, KvCache& cache);
  void resize_buffers(int64_t n_tokens, int64_t n_logits);
  void embed(const Batch& batch, const kernels::WeightMatrix& table);
  void combine_prediction_input(const float* hidden, int64_t n_tokens, ThreadPool& pool);
  void compute_rope_angles(const Batch& batch);
  void prepare_checkpoints(const Batch& batch, KvCache& cache);
  // Whether rows that want no logits leave after `layer` (the last).
  bool drops_rows_after(int64_t layer, const Batch& batch) const;
  bool has_sliding_layers() const { return !config_.swa.layers.empty(); }
  void attention_block(const LayerWeights& w, const AttentionShape& s, bool drops_rows,
                       const Batch& batch, KvCache& cache, ThreadPool& pool);
  void linear_attention_block(int64_t layer, const Batch& batch, KvCache& cache, ThreadPool& pool);
  // With `batch`, the entries' LoRA deltas are added.
  void project_qkv(const LayerWeights& w, const AttentionShape& s, const float* input,
                   int64_t n_tokens, ThreadPool& pool, const Batch* batch = nullptr);
  void split_query_gate(int64_t n_tokens);
  void apply_output_gate();
  // Hadamard runs over which a quantized cache's keys and values turn (0: none).
  struct KvRotation {
    int64_t keys = 0;
    int64_t values = 0;
  };
  KvRotation kv_rotation(KvCache::Types types) const;
  void rotate_for_cache(const AttentionShape& s, KvRotation rotation, int64_t n_tokens);
  void store_kv(const AttentionShape& s, int64_t n_tokens, KvCache& cache);
  // sinks: n_heads logits (gpt-oss) or null.
  void attend(const AttentionShape& s, const float* sinks, const Batch& batch, const KvCache& cache,
              ThreadPool& pool);
  void finish_layer(const LayerWeights& w, int64_t layer, ThreadPool& pool);
  void soft_cap(int64_t n_rows);
  void advance_recurrent_states(const Batch& batch, KvCache& cache);
  void feed_forward_block(const LayerWeights& w, int64_t n_tokens, ThreadPool& pool,
                          const Batch* batch = nullptr);
  void gate_shared_expert(const LayerWeights& w, int64_t n_tokens);
  void dense_feed_forward(const LayerWeights& w, int64_t n_tokens, ThreadPool& pool,
                          const Batch* batch = nullptr);
  void gemma_mixture_block(const LayerWeights& w, int64_t n_tokens, ThreadPool& pool);
  enum class HiddenActivation { kSwiGLU, kGeluGated, kGelu };
  void gate_and_pack(const kernels::WeightMatrix& down, int64_t n_tokens,
                     HiddenActivation activation, ThreadPool& pool,
                     const std::vector<float>& bias = {});
  void keep_output_rows(const Batch& batch, int64_t q_dim);
  // Runs `products`, and when the batch has adapters the LoRA deltas of
  // `outputs` (model/lora_deltas.h) from `lora_input`: row r of n_rows
  // belongs to entry rows[r], or entry r when rows is null.
  void matmul_with_lora(std::span<const kernels::MatmulProduct> products,
                        std::span<const LoraOutput> outputs, int64_t layer, const Batch* batch,
                        const int64_t* rows, int64_t n_rows, PackedInput& lora_input,
                        ThreadPool& pool);
  int64_t layer_index(const LayerWeights& w) const;
  Logits output(const Batch& batch, const std::vector<float>& norm,
                const kernels::WeightMatrix& head, ThreadPool& pool);

  const ModelConfig& config_;
  const ModelWeights& weights_;
  kernels::Rope rope_;
  kernels::Rope sliding_rope_;  // the sliding-window layers'
  int64_t max_q_dim_ = 0;
  int64_t max_kv_dim_ = 0;
  int64_t uniform_head_dim_ = 0;  // every attention layer's; -1: they differ
  LinearAttention linear_attention_;
  ExpertFeedForward experts_;
  PerLayerEmbedding per_layer_;

  std::vector<Placement> placements_;
  std::vector<float*> checkpoints_;  // per entry when any asks for one (prepare_checkpoints)
  // The rows of q_, attended_ and x_ still computed: every entry until the
  // last layer, then only those that want logits. rows_[r] is row r's entry.
  std::vector<int64_t> rows_;
  int64_t n_rows_ = 0;
  std::vector<float> x_;             // [T][n_embd] the residual stream
  std::vector<float> normed_;        // [T][n_embd]
  std::vector<float> q_;             // [T][q_dim]
  std::vector<float> q_gate_;        // [T][2 q_dim] hybrid models: each head's query, then its gate
  std::vector<float> attn_gate_;     // [T][q_dim] hybrid models: the attention output's gate
  std::vector<float> k_;             // [T][kv_dim]
  std::vector<float> v_;             // [T][kv_dim]
  std::vector<uint16_t> k_f16_;      // [T][kv_dim] k_ in F16, before it is spread into the cache
  std::vector<float> attended_;      // [T][q_dim]
  std::vector<float> routed_;        // [T][n_embd] mixture layers: the routed experts' sum
  std::vector<float> shared_scale_;  // [T] mixture layers: the shared expert's gate
  std::vector<float> gate_;          // [T][n_ff]
  std::vector<float> up_;            // [T][n_ff]
  std::vector<float> rope_cos_;      // [T][n_rot/2]
  std::vector<float> rope_sin_;
  std::vector<float> sliding_cos_;  // [T][sliding n_rot/2]
  std::vector<float> sliding_sin_;
  std::vector<float> ones_;  // Gemma 4 normalizes values (and its router's input) without a weight
  std::vector<float> experts_in_;  // [T][n_embd] Gemma 4's mixture: the experts' input
  std::vector<float> router_in_;   // [T][n_embd] and its router's
  PackedInput packed_router_;
  std::vector<float> final_;                  // [n_logits][n_embd]
  std::vector<float> hidden_;                 // [T][n_embd] when the batch keeps hidden states
  std::vector<float> combined_;               // [T][2 n_embd] the prediction block's input
  std::vector<float> logits_;                 // [n_logits][n_vocab]
  PackedInput packed_normed_;                 // read by q/k/v, then by gate/up
  PackedInput packed_attended_;               // read by the output projection
  kernels::PackedActivations packed_hidden_;  // read by the down projection
  PackedInput packed_final_;                  // read by the vocabulary projection
  LoraDeltas lora_;
  std::vector<kernels::MatmulProduct> lora_products_;  // a projection's, then its adapters' A
  PackedInput lora_hidden_;  // the down projection's input for the adapters' A
};

}  // namespace ingot::model
