#pragma once
// A model's tensors bound to the mapped GGUF file. The matrices the kernels
// stream are copied into huge pages when memory allows (ModelWeights::arena)
// and otherwise stay in the map, in the file's element type; the small
// vectors (norm weights, biases, RoPE frequency factors) are read once into
// F32.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "gguf/reader.h"
#include "kernels/matmul.h"
#include "model/model_config.h"
#include "util/page_arena.h"
#include "util/status.h"

namespace ingot::model {

struct LayerWeights {
  std::vector<float> attn_norm;  // n_embd
  kernels::WeightMatrix wq{}, wk{}, wv{}, wo{};
  std::vector<float> bq, bk, bv;      // qwen2, gpt-oss; else empty
  std::vector<float> bo;              // gpt-oss: the output projection's bias
  std::vector<float> attn_sinks;      // gpt-oss: n_heads sink logits
  std::vector<float> q_norm, k_norm;  // qwen3 only (head_dim each), else empty
  std::vector<float> ffn_norm;        // n_embd
  kernels::WeightMatrix gate{}, up{}, down{};

  // Linear-attention layers of hybrid models (see LinearAttentionConfig);
  // such a layer binds none of the attention weights above.
  kernels::WeightMatrix wqkv{};     // conv_channels rows: q, k, v before the convolution
  kernels::WeightMatrix wz{};       // value_dim rows: the output gate
  kernels::WeightMatrix w_beta{};   // value_heads rows: write rate, before its sigmoid
  kernels::WeightMatrix w_alpha{};  // value_heads rows: decay, before softplus
  kernels::WeightMatrix w_linear_out{};
  std::vector<float> conv_taps;    // [conv_channels][conv_kernel]
  std::vector<float> decay_bias;   // value_heads (ssm_dt.bias)
  std::vector<float> decay_rate;   // value_heads (ssm_a, negative)
  std::vector<float> linear_norm;  // state_size, the gated RMSNorm's weight

  // Mixture-of-experts layers: gate, up and down above are the shared
  // expert's; each routed expert has its own three, slices of the file's
  // stacked tensors (or of their copies in the arena).
  kernels::WeightMatrix router{};  // ExpertConfig::count rows
  std::vector<kernels::WeightMatrix> expert_gate, expert_up, expert_down;
  std::vector<float> shared_expert_gate;  // n_embd: the shared expert's sigmoid gate
  // gpt-oss: the router's bias (count) and each expert's biases
  // ([count][feed_forward] for gate and up, [count][n_embd] for down).
  std::vector<float> router_bias, expert_gate_bias, expert_up_bias, expert_down_bias;
  // Gemma 4's experts: the router's input scale, each expert's output
  // scale (or empty), and the norms of the expert side's input and of
  // both sides' outputs.
  std::vector<float> router_input_scale;
  std::vector<float> expert_output_scale;
  std::vector<float> experts_norm, dense_post_norm, experts_post_norm;

  // Gemma 4: norms of the attention and feed-forward outputs, the layer's
  // per-layer-embedding gate and projection, and its output scale. A
  // shared-KV layer binds no wk, wv, k_norm; a layer without wv uses its
  // keys as values.
  std::vector<float> attn_post_norm, ffn_post_norm;
  kernels::WeightMatrix per_layer_gate{};  // per_layer_embedding rows
  kernels::WeightMatrix per_layer_proj{};  // n_embd rows
  std::vector<float> per_layer_post_norm;
  float output_scale = 1.0f;
  // DiffusionGemma: output_scale is the encoder's (the causal pass over
  // prompts and committed canvases), this the decoder's (canvases).
  float canvas_output_scale = 1.0f;

  // Encoders: attn_post_norm and ffn_post_norm are LayerNorms after each
  // sub-layer's residual sum, with these biases; BERT's feed-forward is
  // biased (and has no gate).
  std::vector<float> attn_post_norm_bias, ffn_post_norm_bias;
  std::vector<float> up_bias, down_bias;
};

// Qwen3.5's multi-token-prediction block: from a token's embedding and the
// trunk's final hidden state at the position before it,
//   x = Wcombine [rms_norm(embedding); rms_norm(hidden)]
// then one full-attention layer as the trunk's, and logits through its own
// final norm and the trunk's output (unless the file gives its own).
struct PredictionWeights {
  LayerWeights block;
  kernels::WeightMatrix combine{};  // n_embd rows of 2 n_embd (nextn.eh_proj)
  std::vector<float> embedding_norm, hidden_norm, head_norm;
  kernels::WeightMatrix embedding{};  // nextn.embed_tokens, or the trunk's
  kernels::WeightMatrix head{};       // nextn.shared_head_head, or the trunk's output
};

// DiffusionGemma's self-conditioning: a canvas position's soft embedding
// (the previous step's token probabilities times the embedding, scaled as
// tokens' are), RMS-normed, through a gated GELU block added to the
// position's input:  down(gelu(gate n) * up n),  n = rms_norm(soft) pre_norm.
struct SelfConditioningWeights {
  std::vector<float> pre_norm;         // n_embd
  kernels::WeightMatrix gate{}, up{};  // n_ff rows of n_embd
  kernels::WeightMatrix down{};        // n_embd rows of n_ff
};

struct ModelWeights {
  kernels::WeightMatrix token_embedding{};  // n_vocab rows of n_embd
  std::vector<LayerWeights> layers;
  std::vector<float> output_norm;
  kernels::WeightMatrix
      output{};  // token_embedding itself when tied; none (no rows) for an encoder
  bool tied_output = false;
  // Gemma 4's per-layer token embeddings ([n_vocab][n_layers * width]),
  // the projection of the embedding to the same width, and its norm.
  kernels::WeightMatrix per_layer_embedding{};
  kernels::WeightMatrix per_layer_model_proj{};
  std::vector<float> per_layer_proj_norm;
  // Encoders: the learned positions ([context][n_embd], BERT), the first
  // token type's row added to every token, and the embedding's LayerNorm.
  kernels::WeightMatrix position_embedding{};
  std::vector<float> token_type, embedding_norm, embedding_norm_bias;
  // A reranker's classification head over its pooled state: a dense tanh
  // layer (cls, [n_embd][n_embd], BERT's, may be absent), then the
  // output (cls.output, [classifier_outputs][n_embd]); biases may be empty.
  std::vector<float> classifier, classifier_bias, classifier_output, classifier_output_bias;
  // DiffusionGemma's, when the file has it (the reference runs without).
  std::optional<SelfConditioningWeights> self_conditioning;
  // The first multi-token-prediction block, when the file has one.
  std::optional<PredictionWeights> prediction;

  // Binds every tensor the architecture needs, checking its shape. Fills
  // config.rope.freq_factors when the file has rope_freqs.weight.
  static Result<ModelWeights> bind(const gguf::GgufFile& file, ModelConfig& config);

  // The matrices the kernels read, copied at load into huge pages: in the
  // interleaved layout (kernels/interleave.h) when the active path has
  // kernels for it, as they are otherwise. Each WeightMatrix points into
  // this arena. Moving ModelWeights keeps the arena's memory where it is.
  // Empty when the copy would not fit (weight_arena.h): the matrices are then
  // read from the file map, which the kernel can page under pressure.
  PageArena arena;
};

}  // namespace ingot::model
