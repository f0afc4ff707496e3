#pragma once
// Softmax attention over the KV cache, pre-norm:
//   x += post_norm(Wo attention(rope(Wq n(x)), rope(Wk n(x)), Wv n(x)))
// with n() an RMSNorm and post_norm one only where the file has it (Gemma).
// Its options come from the file and the architecture's behaviours: q/k/v
// biases, per-head q and k norms, values normed without a weight (Gemma
// 4), a sigmoid gate on the output from the query projection
// (gated_attention), sinks (gpt-oss), sliding windows, soft-capped scores
// and shared KV layers (attention_layer.h), the output projection's bias.

#include <cstdint>
#include <span>
#include <vector>

#include "model/forward/adapted_matmul.h"
#include "model/forward/attention_layer.h"
#include "model/forward/block.h"
#include "model/forward/rotary_angles.h"
#include "model/model_config.h"
#include "model/packed_input.h"
#include "model/weights.h"

namespace ingot::model {

class AttentionBlock final : public Block {
 public:
  // layers[i] has shape shapes[i]; `adapted` null: no LoRA adapters.
  AttentionBlock(const ModelConfig& config, std::span<const LayerWeights> layers,
                 std::vector<AttentionLayer> shapes, AdaptedMatmul* adapted);

  // DiffusionGemma's canvas pass: the last `positions` of each sequence
  // (the canvas, whose keys and values the pass caches and then drops) see
  // each other both ways (CachedAttention::bidirectional_tail).
  void see_canvas_of(int64_t positions) { bidirectional_tail_ = positions; }

  // Rebuilds the global layers' rotation from the config's RoPE
  // (Model::prepare_for_context).
  void reset_rope() { global_.reset(config_.rope); }
  // The batch's rotation angles, once before its layers run.
  void prepare(const Batch& batch);

  void run(int64_t layer, Step& step) override;

  // Wo attention(...) of the batch's rows of `input` ([T][n_embd]), plus
  // the output bias, into step.residual.normed: the pre-norm block's core,
  // and the whole of an encoder's attention before its residual sum.
  void attend(int64_t layer, const float* input, Step& step);

 private:
  void project_qkv(int64_t layer, const float* input, Step& step);
  void split_query_gate(int64_t n_tokens);
  void normalize_heads(const LayerWeights& w, const AttentionLayer& s, int64_t n_tokens);
  void rotate_positions(const AttentionLayer& s, int64_t n_tokens);
  void drop_rows(const AttentionLayer& s, Step& step);
  void apply_output_gate(int64_t n_rows);
  void project_output(int64_t layer, Step& step);

  const ModelConfig& config_;
  std::span<const LayerWeights> layers_;
  std::vector<AttentionLayer> shapes_;
  AdaptedMatmul* adapted_;
  RotaryAngles global_;
  RotaryAngles sliding_;  // the sliding-window layers'
  int64_t uniform_head_dim_;
  int64_t bidirectional_tail_ = 0;
  std::vector<float> ones_;         // the weight of Gemma 4's value norm
  std::vector<float> q_;            // [T][q_dim]
  std::vector<float> q_gate_;       // [T][2 q_dim] gated: each head's query, then its gate
  std::vector<float> output_gate_;  // [T][q_dim] gated: the attention output's gate
  std::vector<float> k_;            // [T][kv_dim]
  std::vector<float> v_;            // [T][kv_dim]
  std::vector<uint16_t> k_f16_;     // [T][kv_dim] k_ in F16, before it is spread into the cache
  std::vector<float> attended_;     // [T][q_dim]
  PackedInput packed_attended_;     // read by the output projection
};

}  // namespace ingot::model
