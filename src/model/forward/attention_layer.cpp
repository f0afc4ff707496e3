#include "model/forward/attention_layer.h"

#include <cmath>

namespace ingot::model {
namespace {

AttentionLayer kind_layer(const ModelConfig& c, bool sliding) {
  AttentionLayer s;
  s.head_dim = sliding ? c.swa.head_dim : c.head_dim;
  s.q_dim = c.n_heads * s.head_dim;
  s.kv_heads = sliding ? c.swa.kv_heads : c.n_kv_heads;
  s.kv_dim = s.kv_heads * s.head_dim;
  s.window = sliding ? c.swa.window : 0;
  s.sliding = sliding;
  s.scale = kernels::ScoreScale(
      c.attention_scale > 0 ? c.attention_scale : 1.0f / std::sqrt(float(s.head_dim)),
      c.gemma.attention_softcap);
  return s;
}

}  // namespace

AttentionLayer attention_layer(const ModelConfig& config, int64_t layer) {
  AttentionLayer s = kind_layer(config, config.is_sliding(layer));
  s.kv_layer = config.kind_index[size_t(layer)];
  s.own_kv = config.kv_source[size_t(layer)] == layer;
  return s;
}

AttentionLayer global_attention_layer(const ModelConfig& config) {
  return kind_layer(config, /*sliding=*/false);
}

}  // namespace ingot::model
