#include "model/weights.h"

#include <algorithm>
#include <string>
#include <vector>

#include "kernels/dequantize.h"
#include "model/weight_arena.h"

namespace ingot::model {
namespace {

using kernels::WeightMatrix;

std::string layer_tensor(int64_t layer, std::string_view suffix) {
  return "blk." + std::to_string(layer) + "." + std::string(suffix);
}

std::string shape_text(const std::vector<int64_t>& dims) {
  std::string text = "[";
  for (size_t i = 0; i < dims.size(); ++i) text += (i ? ", " : "") + std::to_string(dims[i]);
  return text + "]";
}

Result<const gguf::TensorInfo*> find_with_shape(const gguf::GgufFile& file, const std::string& name,
                                                const std::vector<int64_t>& dims) {
  const gguf::TensorInfo* tensor = file.find_tensor(name);
  if (tensor == nullptr) return invalid_format("missing tensor " + name);
  if (tensor->dims != dims) {
    return invalid_format("tensor " + name + " has shape " + shape_text(tensor->dims) +
                          ", expected " + shape_text(dims));
  }
  if (!kernels::element_type_info(tensor->type).supported) {
    return unsupported("tensor " + name + " has element type " +
                       std::string(kernels::element_type_name(tensor->type)));
  }
  return tensor;
}

// A [rows][cols] matrix; GGUF lists the dimensions innermost first.
Result<WeightMatrix> bind_matrix(const gguf::GgufFile& file, const std::string& name, int64_t rows,
                                 int64_t cols) {
  INGOT_ASSIGN_OR_RETURN(const gguf::TensorInfo* tensor, find_with_shape(file, name, {cols, rows}));
  const std::optional<size_t> row_bytes = kernels::row_bytes(tensor->type, cols);
  if (!row_bytes) return invalid_format("tensor " + name + " rows are not whole blocks");
  return WeightMatrix{tensor->type, tensor->data, rows, cols, *row_bytes};
}

Result<std::vector<float>> read_vector(const gguf::GgufFile& file, const std::string& name,
                                       int64_t n) {
  INGOT_ASSIGN_OR_RETURN(const gguf::TensorInfo* tensor, find_with_shape(file, name, {n}));
  std::vector<float> values(n);
  kernels::dequantize_row(tensor->type, tensor->data, values.data(), n);
  return values;
}

// A small [rows][cols] matrix read whole into F32.
Result<std::vector<float>> read_small_matrix(const gguf::GgufFile& file, const std::string& name,
                                             int64_t rows, int64_t cols) {
  INGOT_ASSIGN_OR_RETURN(const gguf::TensorInfo* tensor, find_with_shape(file, name, {cols, rows}));
  const std::optional<size_t> row_bytes = kernels::row_bytes(tensor->type, cols);
  if (!row_bytes) return invalid_format("tensor " + name + " rows are not whole blocks");
  std::vector<float> values(rows * cols);
  for (int64_t r = 0; r < rows; ++r) {
    kernels::dequantize_row(tensor->type,
                            static_cast<const uint8_t*>(tensor->data) + r * *row_bytes,
                            values.data() + r * cols, cols);
  }
  return values;
}

// The experts of a stacked [count][rows][cols] tensor, one matrix each.
Result<std::vector<WeightMatrix>> bind_experts(const gguf::GgufFile& file, const std::string& name,
                                               int64_t count, int64_t rows, int64_t cols) {
  INGOT_ASSIGN_OR_RETURN(const gguf::TensorInfo* tensor,
                         find_with_shape(file, name, {cols, rows, count}));
  const std::optional<size_t> row_bytes = kernels::row_bytes(tensor->type, cols);
  if (!row_bytes) return invalid_format("tensor " + name + " rows are not whole blocks");
  std::vector<WeightMatrix> experts;
  for (int64_t e = 0; e < count; ++e) {
    const auto* data = static_cast<const uint8_t*>(tensor->data) + size_t(e * rows) * *row_bytes;
    experts.push_back(WeightMatrix{tensor->type, data, rows, cols, *row_bytes});
  }
  return experts;
}

// One layer's tensors by their suffix: "attn_q.weight" in layer 3 is
// blk.3.attn_q.weight.
struct LayerTensors {
  const gguf::GgufFile& file;
  int64_t layer;

  std::string name(std::string_view suffix) const { return layer_tensor(layer, suffix); }
  bool has(std::string_view suffix) const { return file.find_tensor(name(suffix)) != nullptr; }
  Result<WeightMatrix> matrix(std::string_view suffix, int64_t rows, int64_t cols) const {
    return bind_matrix(file, name(suffix), rows, cols);
  }
  Result<std::vector<float>> vector(std::string_view suffix, int64_t n) const {
    return read_vector(file, name(suffix), n);
  }
};

// Rows [first, first + rows) of `w`, as a matrix of their own.
WeightMatrix row_range(WeightMatrix w, int64_t first, int64_t rows) {
  w.data = static_cast<const uint8_t*>(w.data) + size_t(first) * w.row_stride;
  w.rows = rows;
  return w;
}

// Each expert's gate, up and down matrices, from the stacked
// ffn_{gate,up,down}_exps tensors (both kinds of mixture store them so).
Status bind_stacked_experts(const LayerTensors& blk, const ModelConfig& c, bool gate_and_up,
                            LayerWeights& layer) {
  const ExpertConfig& e = c.experts;
  auto stacked = [&](std::string_view suffix, int64_t rows, int64_t cols) {
    return bind_experts(blk.file, blk.name(suffix), e.count, rows, cols);
  };
  if (gate_and_up) {
    INGOT_ASSIGN_OR_RETURN(layer.expert_gate,
                           stacked("ffn_gate_exps.weight", e.feed_forward, c.n_embd));
    INGOT_ASSIGN_OR_RETURN(layer.expert_up,
                           stacked("ffn_up_exps.weight", e.feed_forward, c.n_embd));
  }
  INGOT_ASSIGN_OR_RETURN(layer.expert_down,
                         stacked("ffn_down_exps.weight", c.n_embd, e.feed_forward));
  return {};
}

// gpt-oss's biases: the router's, and one row per expert for each matrix.
Status bind_expert_biases(const LayerTensors& blk, const ModelConfig& c, LayerWeights& layer) {
  const ExpertConfig& e = c.experts;
  auto per_expert = [&](std::string_view suffix, int64_t n) {
    return read_small_matrix(blk.file, blk.name(suffix), e.count, n);
  };
  INGOT_ASSIGN_OR_RETURN(layer.router_bias, blk.vector("ffn_gate_inp.bias", e.count));
  INGOT_ASSIGN_OR_RETURN(layer.expert_gate_bias, per_expert("ffn_gate_exps.bias", e.feed_forward));
  INGOT_ASSIGN_OR_RETURN(layer.expert_up_bias, per_expert("ffn_up_exps.bias", e.feed_forward));
  INGOT_ASSIGN_OR_RETURN(layer.expert_down_bias, per_expert("ffn_down_exps.bias", c.n_embd));
  return {};
}

Status bind_expert_feed_forward(const gguf::GgufFile& file, const ModelConfig& c, int64_t i,
                                LayerWeights& layer) {
  const LayerTensors blk{file, i};
  const ExpertConfig& e = c.experts;
  INGOT_ASSIGN_OR_RETURN(layer.router, blk.matrix("ffn_gate_inp.weight", e.count, c.n_embd));
  INGOT_RETURN_IF_ERROR(bind_stacked_experts(blk, c, /*gate_and_up=*/true, layer));
  if (c.traits.gpt_oss) return bind_expert_biases(blk, c, layer);
  if (!c.traits.shared_expert) return {};
  INGOT_ASSIGN_OR_RETURN(layer.shared_expert_gate,
                         blk.vector("ffn_gate_inp_shexp.weight", c.n_embd));
  INGOT_ASSIGN_OR_RETURN(layer.gate, blk.matrix("ffn_gate_shexp.weight", c.n_ff, c.n_embd));
  INGOT_ASSIGN_OR_RETURN(layer.up, blk.matrix("ffn_up_shexp.weight", c.n_ff, c.n_embd));
  INGOT_ASSIGN_OR_RETURN(layer.down, blk.matrix("ffn_down_shexp.weight", c.n_embd, c.n_ff));
  return {};
}

Status bind_feed_forward(const gguf::GgufFile& file, const ModelConfig& c, int64_t i,
                         LayerWeights& layer) {
  const LayerTensors blk{file, i};
  const std::string_view norm =
      c.traits.hybrid || c.traits.gpt_oss ? "post_attention_norm.weight" : "ffn_norm.weight";
  INGOT_ASSIGN_OR_RETURN(layer.ffn_norm, blk.vector(norm, c.n_embd));
  if (c.experts.count > 0) return bind_expert_feed_forward(file, c, i, layer);
  if (!blk.has("ffn_gate.weight")) {  // Phi-3: the gate's rows, then the up projection's
    INGOT_ASSIGN_OR_RETURN(WeightMatrix both, blk.matrix("ffn_up.weight", 2 * c.n_ff, c.n_embd));
    layer.gate = row_range(both, 0, c.n_ff);
    layer.up = row_range(both, c.n_ff, c.n_ff);
    INGOT_ASSIGN_OR_RETURN(layer.down, blk.matrix("ffn_down.weight", c.n_embd, c.n_ff));
    return {};
  }
  INGOT_ASSIGN_OR_RETURN(layer.gate, blk.matrix("ffn_gate.weight", c.n_ff, c.n_embd));
  INGOT_ASSIGN_OR_RETURN(layer.up, blk.matrix("ffn_up.weight", c.n_ff, c.n_embd));
  INGOT_ASSIGN_OR_RETURN(layer.down, blk.matrix("ffn_down.weight", c.n_embd, c.n_ff));
  return {};
}

Status bind_linear_attention(const gguf::GgufFile& file, const ModelConfig& c, int64_t i,
                             LayerWeights& layer) {
  const LayerTensors blk{file, i};
  const LinearAttentionConfig& l = c.linear;
  INGOT_ASSIGN_OR_RETURN(layer.wqkv, blk.matrix("attn_qkv.weight", l.conv_channels(), c.n_embd));
  INGOT_ASSIGN_OR_RETURN(layer.wz, blk.matrix("attn_gate.weight", l.value_dim(), c.n_embd));
  INGOT_ASSIGN_OR_RETURN(layer.w_beta, blk.matrix("ssm_beta.weight", l.value_heads, c.n_embd));
  INGOT_ASSIGN_OR_RETURN(layer.w_alpha, blk.matrix("ssm_alpha.weight", l.value_heads, c.n_embd));
  INGOT_ASSIGN_OR_RETURN(layer.w_linear_out, blk.matrix("ssm_out.weight", c.n_embd, l.value_dim()));
  INGOT_ASSIGN_OR_RETURN(layer.conv_taps, read_small_matrix(file, blk.name("ssm_conv1d.weight"),
                                                            l.conv_channels(), l.conv_kernel));
  INGOT_ASSIGN_OR_RETURN(layer.decay_bias, blk.vector("ssm_dt.bias", l.value_heads));
  INGOT_ASSIGN_OR_RETURN(layer.decay_rate, blk.vector("ssm_a", l.value_heads));
  INGOT_ASSIGN_OR_RETURN(layer.linear_norm, blk.vector("ssm_norm.weight", l.state_size));
  return {};
}

// Gemma 4's experts, stored apart (ffn_gate_exps, ffn_up_exps) or with each
// expert's gate rows followed by its up rows (ffn_gate_up_exps).
Status bind_gemma4_experts(const gguf::GgufFile& file, const ModelConfig& c, int64_t i,
                           LayerWeights& layer) {
  const LayerTensors blk{file, i};
  const ExpertConfig& e = c.experts;
  INGOT_ASSIGN_OR_RETURN(layer.router, blk.matrix("ffn_gate_inp.weight", e.count, c.n_embd));
  INGOT_ASSIGN_OR_RETURN(layer.router_input_scale, blk.vector("ffn_gate_inp.scale", c.n_embd));
  INGOT_ASSIGN_OR_RETURN(layer.experts_norm, blk.vector("pre_ffw_norm_2.weight", c.n_embd));
  INGOT_ASSIGN_OR_RETURN(layer.dense_post_norm, blk.vector("post_ffw_norm_1.weight", c.n_embd));
  INGOT_ASSIGN_OR_RETURN(layer.experts_post_norm, blk.vector("post_ffw_norm_2.weight", c.n_embd));
  const bool fused = blk.has("ffn_gate_up_exps.weight");
  if (fused) {
    INGOT_ASSIGN_OR_RETURN(std::vector<WeightMatrix> both,
                           bind_experts(file, blk.name("ffn_gate_up_exps.weight"), e.count,
                                        2 * e.feed_forward, c.n_embd));
    for (const WeightMatrix& w : both) {
      layer.expert_gate.push_back(row_range(w, 0, e.feed_forward));
      layer.expert_up.push_back(row_range(w, e.feed_forward, e.feed_forward));
    }
  }
  INGOT_RETURN_IF_ERROR(bind_stacked_experts(blk, c, /*gate_and_up=*/!fused, layer));
  if (blk.has("ffn_down_exps.scale")) {
    INGOT_ASSIGN_OR_RETURN(layer.expert_output_scale, blk.vector("ffn_down_exps.scale", e.count));
  }
  return {};
}

Result<LayerWeights> bind_gemma_layer(const gguf::GgufFile& file, const ModelConfig& c, int64_t i) {
  const LayerTensors blk{file, i};
  LayerWeights layer;
  const int64_t head_dim = c.head_dim_of(i);
  const int64_t q_dim = c.n_heads * head_dim, kv_dim = c.kv_dim_of(i);
  INGOT_ASSIGN_OR_RETURN(layer.attn_norm, blk.vector("attn_norm.weight", c.n_embd));
  INGOT_ASSIGN_OR_RETURN(layer.wq, blk.matrix("attn_q.weight", q_dim, c.n_embd));
  if (c.traits.qk_norm) {  // Gemma 2 has none
    INGOT_ASSIGN_OR_RETURN(layer.q_norm, blk.vector("attn_q_norm.weight", head_dim));
  }
  if (c.kv_source[size_t(i)] == i) {
    INGOT_ASSIGN_OR_RETURN(layer.wk, blk.matrix("attn_k.weight", kv_dim, c.n_embd));
    if (c.traits.qk_norm) {
      INGOT_ASSIGN_OR_RETURN(layer.k_norm, blk.vector("attn_k_norm.weight", head_dim));
    }
    if (blk.has("attn_v.weight")) {
      INGOT_ASSIGN_OR_RETURN(layer.wv, blk.matrix("attn_v.weight", kv_dim, c.n_embd));
    }
  }
  INGOT_ASSIGN_OR_RETURN(layer.wo, blk.matrix("attn_output.weight", c.n_embd, q_dim));
  INGOT_ASSIGN_OR_RETURN(layer.attn_post_norm, blk.vector("post_attention_norm.weight", c.n_embd));
  INGOT_ASSIGN_OR_RETURN(layer.ffn_norm, blk.vector("ffn_norm.weight", c.n_embd));
  INGOT_ASSIGN_OR_RETURN(layer.gate, blk.matrix("ffn_gate.weight", c.n_ff, c.n_embd));
  INGOT_ASSIGN_OR_RETURN(layer.up, blk.matrix("ffn_up.weight", c.n_ff, c.n_embd));
  INGOT_ASSIGN_OR_RETURN(layer.down, blk.matrix("ffn_down.weight", c.n_embd, c.n_ff));
  INGOT_ASSIGN_OR_RETURN(layer.ffn_post_norm, blk.vector("post_ffw_norm.weight", c.n_embd));
  if (c.experts.count > 0) INGOT_RETURN_IF_ERROR(bind_gemma4_experts(file, c, i, layer));
  if (const int64_t width = c.gemma.per_layer_embedding; width > 0) {
    INGOT_ASSIGN_OR_RETURN(layer.per_layer_gate, blk.matrix("inp_gate.weight", width, c.n_embd));
    INGOT_ASSIGN_OR_RETURN(layer.per_layer_proj, blk.matrix("proj.weight", c.n_embd, width));
    INGOT_ASSIGN_OR_RETURN(layer.per_layer_post_norm, blk.vector("post_norm.weight", c.n_embd));
  }
  if (blk.has("layer_output_scale.weight")) {
    INGOT_ASSIGN_OR_RETURN(std::vector<float> scale, blk.vector("layer_output_scale.weight", 1));
    layer.output_scale = scale[0];
  }
  if (c.traits.diffusion) {
    INGOT_ASSIGN_OR_RETURN(std::vector<float> scale,
                           blk.vector("enc_layer_output_scale.weight", 1));
    layer.canvas_output_scale = layer.output_scale;
    layer.output_scale = scale[0];
  }
  return layer;
}

// A full-attention layer: the trunk's, or a prediction block's.
Status bind_attention(const LayerTensors& blk, const ModelConfig& c, LayerWeights& layer) {
  if (blk.has("attn_qkv.weight")) {  // Phi-3: q, k and v rows one after another
    INGOT_ASSIGN_OR_RETURN(WeightMatrix qkv,
                           blk.matrix("attn_qkv.weight", c.q_dim() + 2 * c.kv_dim(), c.n_embd));
    layer.wq = row_range(qkv, 0, c.q_dim());
    layer.wk = row_range(qkv, c.q_dim(), c.kv_dim());
    layer.wv = row_range(qkv, c.q_dim() + c.kv_dim(), c.kv_dim());
  } else {
    // A hybrid model's query projection gives each head's gate after its query.
    const int64_t q_rows = c.traits.gated_attention ? 2 * c.q_dim() : c.q_dim();
    INGOT_ASSIGN_OR_RETURN(layer.wq, blk.matrix("attn_q.weight", q_rows, c.n_embd));
    INGOT_ASSIGN_OR_RETURN(layer.wk, blk.matrix("attn_k.weight", c.kv_dim(), c.n_embd));
    INGOT_ASSIGN_OR_RETURN(layer.wv, blk.matrix("attn_v.weight", c.kv_dim(), c.n_embd));
  }
  INGOT_ASSIGN_OR_RETURN(layer.wo, blk.matrix("attn_output.weight", c.n_embd, c.q_dim()));
  if (c.traits.qkv_bias) {
    INGOT_ASSIGN_OR_RETURN(layer.bq, blk.vector("attn_q.bias", c.q_dim()));
    INGOT_ASSIGN_OR_RETURN(layer.bk, blk.vector("attn_k.bias", c.kv_dim()));
    INGOT_ASSIGN_OR_RETURN(layer.bv, blk.vector("attn_v.bias", c.kv_dim()));
  }
  if (c.traits.gpt_oss) {
    INGOT_ASSIGN_OR_RETURN(layer.bo, blk.vector("attn_output.bias", c.n_embd));
    INGOT_ASSIGN_OR_RETURN(layer.attn_sinks, blk.vector("attn_sinks.weight", c.n_heads));
  }
  if (c.traits.qk_norm) {
    INGOT_ASSIGN_OR_RETURN(layer.q_norm, blk.vector("attn_q_norm.weight", c.head_dim));
    INGOT_ASSIGN_OR_RETURN(layer.k_norm, blk.vector("attn_k_norm.weight", c.head_dim));
  }
  return {};
}

// A vector the file may leave out: empty then.
Result<std::vector<float>> optional_vector(const LayerTensors& blk, std::string_view suffix,
                                           int64_t n) {
  if (!blk.has(suffix)) return std::vector<float>{};
  return blk.vector(suffix, n);
}

// An encoder's layer: q, k and v apart (BERT) or fused (nomic-bert), each
// maybe biased; a LayerNorm after attention and after the feed-forward.
Result<LayerWeights> bind_encoder_layer(const gguf::GgufFile& file, const ModelConfig& c,
                                        int64_t i) {
  const LayerTensors blk{file, i};
  LayerWeights layer;
  INGOT_RETURN_IF_ERROR(bind_attention(blk, c, layer));
  // The biases are each file's choice: apart, fused with the weights', or none.
  if (blk.has("attn_qkv.bias")) {
    INGOT_ASSIGN_OR_RETURN(std::vector<float> both,
                           blk.vector("attn_qkv.bias", c.q_dim() + 2 * c.kv_dim()));
    layer.bq.assign(both.begin(), both.begin() + c.q_dim());
    layer.bk.assign(both.begin() + c.q_dim(), both.begin() + c.q_dim() + c.kv_dim());
    layer.bv.assign(both.begin() + c.q_dim() + c.kv_dim(), both.end());
  } else {
    INGOT_ASSIGN_OR_RETURN(layer.bq, optional_vector(blk, "attn_q.bias", c.q_dim()));
    INGOT_ASSIGN_OR_RETURN(layer.bk, optional_vector(blk, "attn_k.bias", c.kv_dim()));
    INGOT_ASSIGN_OR_RETURN(layer.bv, optional_vector(blk, "attn_v.bias", c.kv_dim()));
  }
  INGOT_ASSIGN_OR_RETURN(layer.bo, optional_vector(blk, "attn_output.bias", c.n_embd));
  INGOT_ASSIGN_OR_RETURN(layer.attn_post_norm, blk.vector("attn_output_norm.weight", c.n_embd));
  INGOT_ASSIGN_OR_RETURN(layer.attn_post_norm_bias, blk.vector("attn_output_norm.bias", c.n_embd));
  if (!c.traits.learned_positions) {  // nomic-bert: SwiGLU
    INGOT_ASSIGN_OR_RETURN(layer.gate, blk.matrix("ffn_gate.weight", c.n_ff, c.n_embd));
  }
  INGOT_ASSIGN_OR_RETURN(layer.up, blk.matrix("ffn_up.weight", c.n_ff, c.n_embd));
  INGOT_ASSIGN_OR_RETURN(layer.up_bias, optional_vector(blk, "ffn_up.bias", c.n_ff));
  INGOT_ASSIGN_OR_RETURN(layer.down, blk.matrix("ffn_down.weight", c.n_embd, c.n_ff));
  INGOT_ASSIGN_OR_RETURN(layer.down_bias, optional_vector(blk, "ffn_down.bias", c.n_embd));
  INGOT_ASSIGN_OR_RETURN(layer.ffn_post_norm, blk.vector("layer_output_norm.weight", c.n_embd));
  INGOT_ASSIGN_OR_RETURN(layer.ffn_post_norm_bias, blk.vector("layer_output_norm.bias", c.n_embd));
  return layer;
}

Result<LayerWeights> bind_layer(const gguf::GgufFile& file, const ModelConfig& c, int64_t i) {
  const LayerTensors blk{file, i};
  if (c.traits.gemma) return bind_gemma_layer(file, c, i);
  if (c.traits.encoder) return bind_encoder_layer(file, c, i);
  LayerWeights layer;
  INGOT_ASSIGN_OR_RETURN(layer.attn_norm, blk.vector("attn_norm.weight", c.n_embd));
  INGOT_RETURN_IF_ERROR(bind_feed_forward(file, c, i, layer));
  if (c.is_recurrent(i)) {
    INGOT_RETURN_IF_ERROR(bind_linear_attention(file, c, i, layer));
  } else {
    INGOT_RETURN_IF_ERROR(bind_attention(blk, c, layer));
  }
  return layer;
}

// The block right after the trunk's layers. Its embedding and head, when
// it has none of its own, are the trunk's (set once those are final).
Result<PredictionWeights> bind_prediction(const gguf::GgufFile& file, const ModelConfig& c) {
  const int64_t i = c.n_layers;
  const LayerTensors blk{file, i};
  PredictionWeights p;
  INGOT_ASSIGN_OR_RETURN(p.block.attn_norm, blk.vector("attn_norm.weight", c.n_embd));
  INGOT_RETURN_IF_ERROR(bind_feed_forward(file, c, i, p.block));
  INGOT_RETURN_IF_ERROR(bind_attention(blk, c, p.block));
  INGOT_ASSIGN_OR_RETURN(p.combine, blk.matrix("nextn.eh_proj.weight", c.n_embd, 2 * c.n_embd));
  INGOT_ASSIGN_OR_RETURN(p.embedding_norm, blk.vector("nextn.enorm.weight", c.n_embd));
  INGOT_ASSIGN_OR_RETURN(p.hidden_norm, blk.vector("nextn.hnorm.weight", c.n_embd));
  if (blk.has("nextn.shared_head_norm.weight")) {
    INGOT_ASSIGN_OR_RETURN(p.head_norm, blk.vector("nextn.shared_head_norm.weight", c.n_embd));
  }
  if (blk.has("nextn.embed_tokens.weight")) {
    INGOT_ASSIGN_OR_RETURN(p.embedding,
                           blk.matrix("nextn.embed_tokens.weight", c.n_vocab, c.n_embd));
  }
  if (blk.has("nextn.shared_head_head.weight")) {
    INGOT_ASSIGN_OR_RETURN(p.head,
                           blk.matrix("nextn.shared_head_head.weight", c.n_vocab, c.n_embd));
  }
  return p;
}

void share_trunk_ends(ModelWeights& weights) {
  PredictionWeights& p = *weights.prediction;
  if (p.head_norm.empty()) p.head_norm = weights.output_norm;
  if (p.embedding.rows == 0) p.embedding = weights.token_embedding;
  if (p.head.rows == 0) p.head = weights.output;
}

// An encoder's embedding side: the token type's row, BERT's positions and
// the LayerNorm after their sum.
Status bind_encoder_ends(const gguf::GgufFile& file, const ModelConfig& config,
                         ModelWeights& weights) {
  const int64_t n_embd = config.n_embd;
  if (file.find_tensor("token_types.weight") != nullptr) {
    const gguf::TensorInfo* types = file.find_tensor("token_types.weight");
    if (types->dims.size() != 2 || types->dims[0] != n_embd || types->dims[1] < 1) {
      return invalid_format("tensor token_types.weight is not [types][n_embd]");
    }
    INGOT_ASSIGN_OR_RETURN(weights.token_type,
                           read_small_matrix(file, "token_types.weight", types->dims[1], n_embd));
    weights.token_type.resize(size_t(n_embd));  // "sentence A": llama.cpp's only type
  }
  if (config.traits.learned_positions) {
    INGOT_ASSIGN_OR_RETURN(weights.position_embedding, bind_matrix(file, "position_embd.weight",
                                                                   config.context_length, n_embd));
  }
  INGOT_ASSIGN_OR_RETURN(weights.embedding_norm,
                         read_vector(file, "token_embd_norm.weight", n_embd));
  INGOT_ASSIGN_OR_RETURN(weights.embedding_norm_bias,
                         read_vector(file, "token_embd_norm.bias", n_embd));
  return {};
}

// A reranker's head, when the file has one: BERT's cls (dense, tanh) and
// cls.output; Qwen3-Reranker's cls.output alone (its yes and no rows).
Status bind_classifier(const gguf::GgufFile& file, ModelConfig& config, ModelWeights& weights) {
  const gguf::TensorInfo* out = file.find_tensor("cls.output.weight");
  if (out == nullptr) return {};
  const int64_t n_embd = config.n_embd;
  if (out->dims.size() != 2 || out->dims[0] != n_embd || out->dims[1] < 1) {
    return invalid_format("tensor cls.output.weight is not [outputs][n_embd]");
  }
  const int64_t outputs = out->dims[1];
  INGOT_ASSIGN_OR_RETURN(weights.classifier_output,
                         read_small_matrix(file, "cls.output.weight", outputs, n_embd));
  if (file.find_tensor("cls.output.bias") != nullptr) {
    INGOT_ASSIGN_OR_RETURN(weights.classifier_output_bias,
                           read_vector(file, "cls.output.bias", outputs));
  }
  if (file.find_tensor("cls.weight") != nullptr) {
    INGOT_ASSIGN_OR_RETURN(weights.classifier,
                           read_small_matrix(file, "cls.weight", n_embd, n_embd));
    if (file.find_tensor("cls.bias") != nullptr) {
      INGOT_ASSIGN_OR_RETURN(weights.classifier_bias, read_vector(file, "cls.bias", n_embd));
    }
  }
  config.classifier_outputs = outputs;
  return {};
}

Result<SelfConditioningWeights> bind_self_conditioning(const gguf::GgufFile& file,
                                                       const ModelConfig& c) {
  SelfConditioningWeights sc;
  INGOT_ASSIGN_OR_RETURN(sc.pre_norm, read_vector(file, "self_cond_pre_norm.weight", c.n_embd));
  INGOT_ASSIGN_OR_RETURN(sc.gate, bind_matrix(file, "self_cond_gate.weight", c.n_ff, c.n_embd));
  INGOT_ASSIGN_OR_RETURN(sc.up, bind_matrix(file, "self_cond_up.weight", c.n_ff, c.n_embd));
  INGOT_ASSIGN_OR_RETURN(sc.down, bind_matrix(file, "self_cond_down.weight", c.n_embd, c.n_ff));
  return sc;
}

}  // namespace

Result<ModelWeights> ModelWeights::bind(const gguf::GgufFile& file, ModelConfig& config) {
  ModelWeights weights;
  INGOT_ASSIGN_OR_RETURN(weights.token_embedding,
                         bind_matrix(file, "token_embd.weight", config.n_vocab, config.n_embd));
  for (int64_t i = 0; i < config.n_layers; ++i) {
    auto layer = bind_layer(file, config, i);
    if (!layer.ok())
      return std::move(layer.error().add_context("binding layer " + std::to_string(i)));
    weights.layers.push_back(std::move(layer).value());
  }
  if (config.traits.encoder) {
    INGOT_RETURN_IF_ERROR(bind_encoder_ends(file, config, weights));
  } else {
    INGOT_ASSIGN_OR_RETURN(weights.output_norm,
                           read_vector(file, "output_norm.weight", config.n_embd));
  }
  INGOT_RETURN_IF_ERROR(bind_classifier(file, config, weights));
  // Models that tie their output projection to the embedding store no
  // output.weight; an encoder has no vocabulary projection at all.
  weights.tied_output = file.find_tensor("output.weight") == nullptr;
  if (config.traits.encoder) {
    weights.tied_output = false;
  } else if (weights.tied_output) {
    weights.output = weights.token_embedding;
  } else {
    INGOT_ASSIGN_OR_RETURN(weights.output,
                           bind_matrix(file, "output.weight", config.n_vocab, config.n_embd));
  }
  if (const int64_t width = config.gemma.per_layer_embedding; width > 0) {
    const int64_t all_layers = width * config.n_layers;
    INGOT_ASSIGN_OR_RETURN(
        weights.per_layer_embedding,
        bind_matrix(file, "per_layer_token_embd.weight", config.n_vocab, all_layers));
    INGOT_ASSIGN_OR_RETURN(
        weights.per_layer_model_proj,
        bind_matrix(file, "per_layer_model_proj.weight", all_layers, config.n_embd));
    INGOT_ASSIGN_OR_RETURN(weights.per_layer_proj_norm,
                           read_vector(file, "per_layer_proj_norm.weight", width));
  }
  if (config.traits.diffusion && file.find_tensor("self_cond_gate.weight") != nullptr) {
    INGOT_ASSIGN_OR_RETURN(weights.self_conditioning, bind_self_conditioning(file, config));
  }
  // Only Qwen3.5's prediction block is known; other files' stay unread.
  if (config.n_nextn_layers > 0 && config.traits.hybrid) {
    auto prediction = bind_prediction(file, config);
    if (!prediction.ok()) {
      return std::move(prediction.error().add_context("binding the prediction block"));
    }
    weights.prediction = std::move(prediction).value();
  }
  move_matrices_to_arena(weights);
  if (weights.prediction) share_trunk_ends(weights);
  if (file.find_tensor("rope_freqs.weight") != nullptr) {
    INGOT_ASSIGN_OR_RETURN(config.rope.freq_factors,
                           read_vector(file, "rope_freqs.weight", config.rope.n_rot / 2));
  }
  // LongRoPE: the short factors serve contexts up to the original one, the
  // long ones longer contexts (Model::prepare_for_context).
  if (file.find_tensor("rope_factors_short.weight") != nullptr) {
    INGOT_ASSIGN_OR_RETURN(config.short_rope_factors,
                           read_vector(file, "rope_factors_short.weight", config.rope.n_rot / 2));
    config.rope.freq_factors = config.short_rope_factors;
    INGOT_ASSIGN_OR_RETURN(config.long_rope_factors,
                           read_vector(file, "rope_factors_long.weight", config.rope.n_rot / 2));
  }
  return weights;
}

}  // namespace ingot::model
