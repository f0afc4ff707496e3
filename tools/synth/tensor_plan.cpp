#include "tensor_plan.h"

#include <fmt/format.h>

namespace ingot::synth {
namespace {

void plan_block(const Shape& s, int64_t layer, std::vector<PlannedTensor>& out) {
  auto add = [&](std::string_view suffix, std::vector<int64_t> dims, TensorRole role) {
    out.push_back({fmt::format("blk.{}.{}", layer, suffix), std::move(dims), role, layer});
  };
  int64_t q_width = s.heads * s.head_dim;
  int64_t kv_width = s.kv_heads * s.head_dim;
  add("attn_norm.weight", {s.hidden}, TensorRole::kNorm);
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
  add("ffn_gate.weight", {s.hidden, s.feed_forward}, TensorRole::kOtherWeight);
  add("ffn_up.weight", {s.hidden, s.feed_forward}, TensorRole::kOtherWeight);
  add("ffn_down.weight", {s.feed_forward, s.hidden}, TensorRole::kFeedForwardDown);
}

}  // namespace

std::vector<PlannedTensor> plan_tensors(const Shape& shape, int64_t vocabulary_size) {
  std::vector<PlannedTensor> tensors;
  tensors.push_back(
      {"token_embd.weight", {shape.hidden, vocabulary_size}, TensorRole::kEmbedding, -1});
  for (int64_t layer = 0; layer < shape.layers; ++layer) plan_block(shape, layer, tensors);
  tensors.push_back({"output_norm.weight", {shape.hidden}, TensorRole::kNorm, -1});
  if (!shape.tied_output) {
    tensors.push_back({"output.weight", {shape.hidden, vocabulary_size}, TensorRole::kOutput, -1});
  }
  return tensors;
}

}  // namespace ingot::synth
