#include "tensor_plan.h"

#include <fmt/format.h>

#include <functional>

namespace ingot::synth {
namespace {

using AddTensor = std::function<void(std::string_view, std::vector<int64_t>, TensorRole)>;

// Qwen3.5's linear attention: one projection to the convolved q, k and v,
// one to the output gate z, and per value head a decay and a write rate.
void plan_linear_attention(const Shape& s, const AddTensor& add) {
  const LinearAttentionShape& l = s.linear;
  int64_t key_width = l.key_heads * l.state_size;
  int64_t value_width = l.value_heads * l.state_size;
  add("attn_qkv.weight", {s.hidden, 2 * key_width + value_width}, TensorRole::kOtherWeight);
  add("attn_gate.weight", {s.hidden, value_width}, TensorRole::kOtherWeight);
  add("ssm_conv1d.weight", {l.conv_kernel, 2 * key_width + value_width}, TensorRole::kConvolution);
  add("ssm_dt.bias", {l.value_heads}, TensorRole::kDecayBias);
  add("ssm_a", {l.value_heads}, TensorRole::kDecayRate);
  add("ssm_beta.weight", {s.hidden, l.value_heads}, TensorRole::kOtherWeight);
  add("ssm_alpha.weight", {s.hidden, l.value_heads}, TensorRole::kOtherWeight);
  add("ssm_norm.weight", {l.state_size}, TensorRole::kNorm);
  add("ssm_out.weight", {value_width, s.hidden}, TensorRole::kOtherWeight);
}

// Qwen3.5's full attention: the query projection also yields a sigmoid
// gate per head, interleaved with the query head by head.
void plan_gated_attention(const Shape& s, const AddTensor& add) {
  int64_t q_width = s.heads * s.head_dim;
  int64_t kv_width = s.kv_heads * s.head_dim;
  add("attn_q.weight", {s.hidden, 2 * q_width}, TensorRole::kOtherWeight);
  add("attn_k.weight", {s.hidden, kv_width}, TensorRole::kOtherWeight);
  add("attn_v.weight", {s.hidden, kv_width}, TensorRole::kAttentionV);
  add("attn_q_norm.weight", {s.head_dim}, TensorRole::kNorm);
  add("attn_k_norm.weight", {s.head_dim}, TensorRole::kNorm);
  add("attn_output.weight", {q_width, s.hidden}, TensorRole::kOtherWeight);
}

// Experts' matrices are stacked in one 3-D tensor each, expert outermost.
void plan_experts(const Shape& s, const AddTensor& add) {
  const ExpertShape& e = s.moe;
  add("ffn_gate_inp.weight", {s.hidden, e.experts}, TensorRole::kRouter);
  add("ffn_gate_exps.weight", {s.hidden, e.expert_feed_forward, e.experts},
      TensorRole::kOtherWeight);
  add("ffn_up_exps.weight", {s.hidden, e.expert_feed_forward, e.experts}, TensorRole::kOtherWeight);
  add("ffn_down_exps.weight", {e.expert_feed_forward, s.hidden, e.experts},
      TensorRole::kFeedForwardDown);
  if (e.shared_feed_forward == 0) return;  // qwen3moe: the experts alone
  add("ffn_gate_inp_shexp.weight", {s.hidden}, TensorRole::kRouter);
  add("ffn_gate_shexp.weight", {s.hidden, e.shared_feed_forward}, TensorRole::kOtherWeight);
  add("ffn_up_shexp.weight", {s.hidden, e.shared_feed_forward}, TensorRole::kOtherWeight);
  add("ffn_down_shexp.weight", {e.shared_feed_forward, s.hidden}, TensorRole::kFeedForwardDown);
}

void plan_hybrid_block(const Shape& s, bool recurrent, const AddTensor& add) {
  add("attn_norm.weight", {s.hidden}, TensorRole::kNorm);
  if (recurrent) {
    plan_linear_attention(s, add);
  } else {
    plan_gated_attention(s, add);
  }
  add("post_attention_norm.weight", {s.hidden}, TensorRole::kNorm);
  if (s.moe.experts > 0) {
    plan_experts(s, add);
    return;
  }
  add("ffn_gate.weight", {s.hidden, s.feed_forward}, TensorRole::kOtherWeight);
  add("ffn_up.weight", {s.hidden, s.feed_forward}, TensorRole::kOtherWeight);
  add("ffn_down.weight", {s.feed_forward, s.hidden}, TensorRole::kFeedForwardDown);
}

void plan_gemma_block(const Shape& s, int64_t layer, const AddTensor& add) {
  const int64_t head_dim = s.head_dim_of(layer);
  const int64_t per_layer = s.gemma.per_layer_embedding;
  add("attn_norm.weight", {s.hidden}, TensorRole::kNorm);
  add("attn_q.weight", {s.hidden, s.heads * head_dim}, TensorRole::kOtherWeight);
  if (s.has_own_kv(layer)) {
    const int64_t kv_width = s.kv_heads_of(layer) * head_dim;
    add("attn_k.weight", {s.hidden, kv_width}, TensorRole::kOtherWeight);
    if (s.has_value_projection(layer)) {
      add("attn_v.weight", {s.hidden, kv_width}, TensorRole::kAttentionV);
    }
    if (s.qk_norm) add("attn_k_norm.weight", {head_dim}, TensorRole::kQueryKeyNorm);
  }
  // Gemma 4 leaves the scores unscaled: trained q/k norm weights keep them
  // small, and ones would make every softmax a near-argmax. Gemma 2 has none.
  if (s.qk_norm) add("attn_q_norm.weight", {head_dim}, TensorRole::kQueryKeyNorm);
  add("attn_output.weight", {s.heads * head_dim, s.hidden}, TensorRole::kOtherWeight);
  add("post_attention_norm.weight", {s.hidden}, TensorRole::kNorm);
  add("ffn_norm.weight", {s.hidden}, TensorRole::kNorm);
  add("ffn_gate.weight", {s.hidden, s.feed_forward}, TensorRole::kOtherWeight);
  add("ffn_up.weight", {s.hidden, s.feed_forward}, TensorRole::kOtherWeight);
  add("ffn_down.weight", {s.feed_forward, s.hidden}, TensorRole::kFeedForwardDown);
  add("post_ffw_norm.weight", {s.hidden}, TensorRole::kNorm);
  if (s.moe.experts > 0) {
    // The experts run beside the dense feed-forward, each side normed on
    // its own; the router reads the plainly normed residual, scaled.
    const ExpertShape& e = s.moe;
    add("ffn_gate_inp.weight", {s.hidden, e.experts}, TensorRole::kRouter);
    add("ffn_gate_inp.scale", {s.hidden}, TensorRole::kRouterInputScale);
    add("pre_ffw_norm_2.weight", {s.hidden}, TensorRole::kNorm);
    add("post_ffw_norm_1.weight", {s.hidden}, TensorRole::kNorm);
    add("post_ffw_norm_2.weight", {s.hidden}, TensorRole::kNorm);
    add("ffn_gate_exps.weight", {s.hidden, e.expert_feed_forward, e.experts},
        TensorRole::kOtherWeight);
    add("ffn_up_exps.weight", {s.hidden, e.expert_feed_forward, e.experts},
        TensorRole::kOtherWeight);
    add("ffn_down_exps.weight", {e.expert_feed_forward, s.hidden, e.experts},
        TensorRole::kFeedForwardDown);
    add("ffn_down_exps.scale", {e.experts}, TensorRole::kScale);
  }
  if (per_layer > 0) {
    add("inp_gate.weight", {s.hidden, per_layer}, TensorRole::kOtherWeight);
    add("proj.weight", {per_layer, s.hidden}, TensorRole::kOtherWeight);
    add("post_norm.weight", {s.hidden}, TensorRole::kNorm);
  }
  if (s.is_gemma4()) add("layer_output_scale.weight", {1}, TensorRole::kLayerScale);
  if (s.gemma.canvas_length > 0) {
    add("enc_layer_output_scale.weight", {1}, TensorRole::kLayerScale);
  }
}

// DiffusionGemma's self-conditioning block, fed the previous step's soft
// embedding: a norm, then a gated GELU feed-forward of the dense width.
void plan_self_conditioning(const Shape& s, std::vector<PlannedTensor>& out) {
  out.push_back({"self_cond_pre_norm.weight", {s.hidden}, TensorRole::kNorm, -1});
  out.push_back({"self_cond_gate.weight", {s.hidden, s.feed_forward}, TensorRole::kOtherWeight, -1});
  out.push_back({"self_cond_up.weight", {s.hidden, s.feed_forward}, TensorRole::kOtherWeight, -1});
  out.push_back({"self_cond_down.weight", {s.feed_forward, s.hidden}, TensorRole::kFeedForwardDown, -1});
}

// gpt-oss: biased attention with sink logits, then biased experts after
// post_attention_norm.
void plan_gpt_oss_block(const Shape& s, const AddTensor& add) {
  const int64_t q_width = s.heads * s.head_dim, kv_width = s.kv_heads * s.head_dim;
  const ExpertShape& e = s.moe;
  add("attn_norm.weight", {s.hidden}, TensorRole::kNorm);
  add("attn_q.weight", {s.hidden, q_width}, TensorRole::kOtherWeight);
  add("attn_q.bias", {q_width}, TensorRole::kBias);
  add("attn_k.weight", {s.hidden, kv_width}, TensorRole::kOtherWeight);
  add("attn_k.bias", {kv_width}, TensorRole::kBias);
  add("attn_v.weight", {s.hidden, kv_width}, TensorRole::kAttentionV);
  add("attn_v.bias", {kv_width}, TensorRole::kBias);
  add("attn_output.weight", {q_width, s.hidden}, TensorRole::kOtherWeight);
  add("attn_output.bias", {s.hidden}, TensorRole::kBias);
  add("attn_sinks.weight", {s.heads}, TensorRole::kAttentionSink);
  add("post_attention_norm.weight", {s.hidden}, TensorRole::kNorm);
  add("ffn_gate_inp.weight", {s.hidden, e.experts}, TensorRole::kRouter);
  add("ffn_gate_inp.bias", {e.experts}, TensorRole::kRouterBias);
  add("ffn_gate_exps.weight", {s.hidden, e.expert_feed_forward, e.experts},
      TensorRole::kOtherWeight);
  add("ffn_gate_exps.bias", {e.expert_feed_forward, e.experts}, TensorRole::kBias);
  add("ffn_up_exps.weight", {s.hidden, e.expert_feed_forward, e.experts}, TensorRole::kOtherWeight);
  add("ffn_up_exps.bias", {e.expert_feed_forward, e.experts}, TensorRole::kBias);
  add("ffn_down_exps.weight", {e.expert_feed_forward, s.hidden, e.experts},
      TensorRole::kFeedForwardDown);
  add("ffn_down_exps.bias", {s.hidden, e.experts}, TensorRole::kBias);
}

AddTensor layer_adder(int64_t layer, std::vector<PlannedTensor>& out) {
  return [layer, &out](std::string_view suffix, std::vector<int64_t> dims, TensorRole role) {
    out.push_back({fmt::format("blk.{}.{}", layer, suffix), std::move(dims), role, layer});
  };
}

// Qwen3.5's prediction block: a full-attention block like the trunk's,
// whose input is eh_proj [enorm(embedding); hnorm(hidden)], normed at the
// end by its own shared_head_norm. It shares the embedding and output.
void plan_nextn_block(const Shape& s, int64_t layer, std::vector<PlannedTensor>& out) {
  const AddTensor add = layer_adder(layer, out);
  plan_hybrid_block(s, /*recurrent=*/false, add);
  add("nextn.eh_proj.weight", {2 * s.hidden, s.hidden}, TensorRole::kOtherWeight);
  add("nextn.enorm.weight", {s.hidden}, TensorRole::kNorm);
  add("nextn.hnorm.weight", {s.hidden}, TensorRole::kNorm);
  add("nextn.shared_head_norm.weight", {s.hidden}, TensorRole::kNorm);
}

// Phi-3: q, k and v in one matrix, the feed-forward's gate and up in one.
void plan_phi3_block(const Shape& s, const AddTensor& add) {
  const int64_t q_width = s.heads * s.head_dim, kv_width = s.kv_heads * s.head_dim;
  add("attn_qkv.weight", {s.hidden, q_width + 2 * kv_width}, TensorRole::kOtherWeight);
  add("attn_output.weight", {q_width, s.hidden}, TensorRole::kOtherWeight);
  add("ffn_norm.weight", {s.hidden}, TensorRole::kNorm);
  add("ffn_up.weight", {s.hidden, 2 * s.feed_forward}, TensorRole::kOtherWeight);
  add("ffn_down.weight", {s.feed_forward, s.hidden}, TensorRole::kFeedForwardDown);
}

// BERT and nomic-bert: post-norm layers. BERT's q, k and v are apart and
// every matrix biased; nomic-bert's q, k and v are fused, unbiased, and its
// feed-forward is SwiGLU.
void plan_encoder_block(const Shape& s, const AddTensor& add) {
  const int64_t width = s.heads * s.head_dim;
  if (s.architecture == "bert") {
    for (const char* name : {"attn_q", "attn_k", "attn_v"}) {
      add(fmt::format("{}.weight", name), {s.hidden, width},
          name == std::string_view("attn_v") ? TensorRole::kAttentionV : TensorRole::kOtherWeight);
      add(fmt::format("{}.bias", name), {width}, TensorRole::kBias);
    }
  } else {
    add("attn_qkv.weight", {s.hidden, 3 * width}, TensorRole::kOtherWeight);
  }
  add("attn_output.weight", {width, s.hidden}, TensorRole::kOtherWeight);
  if (s.architecture == "bert") add("attn_output.bias", {s.hidden}, TensorRole::kBias);
  add("attn_output_norm.weight", {s.hidden}, TensorRole::kNorm);
  add("attn_output_norm.bias", {s.hidden}, TensorRole::kBias);
  if (s.architecture != "bert") {
    add("ffn_gate.weight", {s.hidden, s.feed_forward}, TensorRole::kOtherWeight);
  }
  add("ffn_up.weight", {s.hidden, s.feed_forward}, TensorRole::kOtherWeight);
  if (s.architecture == "bert") add("ffn_up.bias", {s.feed_forward}, TensorRole::kBias);
  add("ffn_down.weight", {s.feed_forward, s.hidden}, TensorRole::kFeedForwardDown);
  if (s.architecture == "bert") add("ffn_down.bias", {s.hidden}, TensorRole::kBias);
  add("layer_output_norm.weight", {s.hidden}, TensorRole::kNorm);
  add("layer_output_norm.bias", {s.hidden}, TensorRole::kBias);
}

bool is_encoder(const Shape& s) {
  return s.architecture == "bert" || s.architecture == "nomic-bert";
}

// An encoder's embedding side: token types, BERT's learned positions, and
// the LayerNorm after their sum.
void plan_encoder_embedding(const Shape& s, std::vector<PlannedTensor>& out) {
  out.push_back({"token_types.weight", {s.hidden, 2}, TensorRole::kUnquantized, -1});
  if (s.architecture == "bert") {
    out.push_back({"position_embd.weight", {s.hidden, s.context}, TensorRole::kOtherWeight, -1});
  }
  out.push_back({"token_embd_norm.weight", {s.hidden}, TensorRole::kNorm, -1});
  out.push_back({"token_embd_norm.bias", {s.hidden}, TensorRole::kBias, -1});
}

// A reranker's head: BERT's dense cls layer then cls.output; a decoder's
// cls.output alone.
void plan_classifier(const Shape& s, std::vector<PlannedTensor>& out) {
  if (is_encoder(s)) {
    out.push_back({"cls.weight", {s.hidden, s.hidden}, TensorRole::kClassifier, -1});
    out.push_back({"cls.bias", {s.hidden}, TensorRole::kBias, -1});
  }
  out.push_back(
      {"cls.output.weight", {s.hidden, s.classifier_outputs}, TensorRole::kClassifier, -1});
  if (is_encoder(s)) {
    out.push_back({"cls.output.bias", {s.classifier_outputs}, TensorRole::kBias, -1});
  }
}

void plan_block(const Shape& s, int64_t layer, std::vector<PlannedTensor>& out) {
  const AddTensor add = layer_adder(layer, out);
  if (is_encoder(s)) {
    plan_encoder_block(s, add);
    return;
  }
  if (s.architecture == "gpt-oss") {
    plan_gpt_oss_block(s, add);
    return;
  }
  if (s.full_attention_interval > 0) {
    plan_hybrid_block(s, s.is_recurrent_layer(layer), add);
    return;
  }
  if (s.gemma.global_every > 0) {
    plan_gemma_block(s, layer, add);
    return;
  }
  int64_t q_width = s.heads * s.head_dim;
  int64_t kv_width = s.kv_heads * s.head_dim;
  add("attn_norm.weight", {s.hidden}, TensorRole::kNorm);
  if (s.architecture == "phi3") {
    plan_phi3_block(s, add);
    return;
  }
  add("attn_q.weight", {s.hidden, q_width}, TensorRole::kOtherWeight);
  add("attn_k.weight", {s.hidden, kv_width}, TensorRole::kOtherWeight);
  add("attn_v.weight", {s.hidden, kv_width}, TensorRole::kAttentionV);
  if (s.qkv_bias) {
    add("attn_q.bias", {q_width}, TensorRole::kBias);
    add("attn_k.bias", {kv_width}, TensorRole::kBias);
    add("attn_v.bias", {kv_width}, TensorRole::kBias);
  }
  if (s.qk_norm) {
    add("attn_q_norm.weight", {s.head_dim}, TensorRole::kNorm);
    add("attn_k_norm.weight", {s.head_dim}, TensorRole::kNorm);
  }
  add("attn_output.weight", {q_width, s.hidden}, TensorRole::kOtherWeight);
  add("ffn_norm.weight", {s.hidden}, TensorRole::kNorm);
  if (s.moe.experts > 0) {
    plan_experts(s, add);
    return;
  }
  add("ffn_gate.weight", {s.hidden, s.feed_forward}, TensorRole::kOtherWeight);
  add("ffn_up.weight", {s.hidden, s.feed_forward}, TensorRole::kOtherWeight);
  add("ffn_down.weight", {s.feed_forward, s.hidden}, TensorRole::kFeedForwardDown);
}

std::vector<PlannedTensor> plan_tensors_of_layer(const Shape& shape, int64_t layer) {
  std::vector<PlannedTensor> tensors;
  plan_block(shape, layer, tensors);
  return tensors;
}

// The projections PEFT adapters usually target.
bool is_lora_target(const std::string& name) {
  for (const char* target :
       {".attn_q.weight", ".attn_k.weight", ".attn_v.weight", ".attn_output.weight",
        ".ffn_gate.weight", ".ffn_up.weight", ".ffn_down.weight"}) {
    if (name.ends_with(target)) return true;
  }
  return false;
}

}  // namespace

std::vector<PlannedTensor> plan_tensors(const Shape& shape, int64_t vocabulary_size) {
  std::vector<PlannedTensor> tensors;
  tensors.push_back(
      {"token_embd.weight", {shape.hidden, vocabulary_size}, TensorRole::kEmbedding, -1});
  if (shape.gemma.per_layer_embedding > 0) {
    const int64_t width = shape.gemma.per_layer_embedding * shape.layers;
    tensors.push_back(
        {"per_layer_token_embd.weight", {width, vocabulary_size}, TensorRole::kOtherWeight, -1});
    tensors.push_back(
        {"per_layer_model_proj.weight", {shape.hidden, width}, TensorRole::kUnquantized, -1});
    tensors.push_back(
        {"per_layer_proj_norm.weight", {shape.gemma.per_layer_embedding}, TensorRole::kNorm, -1});
  }
  if (shape.gemma.canvas_length > 0) plan_self_conditioning(shape, tensors);
  if (shape.is_gemma4()) {
    tensors.push_back({"rope_freqs.weight", {shape.head_dim / 2}, TensorRole::kRopeFactors, -1});
  }
  if (shape.rope_original_context > 0) {
    const int64_t pairs = (shape.rope_dims > 0 ? shape.rope_dims : shape.head_dim) / 2;
    for (const char* name : {"rope_factors_long.weight", "rope_factors_short.weight"}) {
      tensors.push_back({name, {pairs}, TensorRole::kLongRopeFactors, -1});
    }
  }
  if (is_encoder(shape)) plan_encoder_embedding(shape, tensors);
  for (int64_t layer = 0; layer < shape.layers; ++layer) plan_block(shape, layer, tensors);
  for (int64_t i = 0; i < shape.nextn_layers; ++i) {
    plan_nextn_block(shape, shape.layers + i, tensors);
  }
  if (shape.classifier_outputs > 0) plan_classifier(shape, tensors);
  if (is_encoder(shape)) return tensors;  // no output norm, no vocabulary projection
  tensors.push_back({"output_norm.weight", {shape.hidden}, TensorRole::kNorm, -1});
  if (!shape.tied_output) {
    tensors.push_back({"output.weight", {shape.hidden, vocabulary_size}, TensorRole::kOutput, -1});
  }
  return tensors;
}

std::vector<PlannedTensor> plan_lora_tensors(const Shape& shape, int64_t rank) {
  std::vector<PlannedTensor> tensors;
  for (int64_t layer = 0; layer < shape.layers; ++layer) {
    for (const PlannedTensor& base : plan_tensors_of_layer(shape, layer)) {
      if (!is_lora_target(base.name)) continue;
      const int64_t in = base.dims[0], out = base.dims[1];
      tensors.push_back({base.name + ".lora_a", {in, rank}, TensorRole::kLoraA, layer});
      tensors.push_back({base.name + ".lora_b", {rank, out}, TensorRole::kLoraB, layer});
    }
  }
  return tensors;
}

}  // namespace ingot::synth
