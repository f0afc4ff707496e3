#include "model/model.h"

#include <utility>

namespace ingot::model {

Result<std::unique_ptr<Model>> Model::load(const std::string& path) {
  auto file = gguf::GgufFile::open(path);
  if (!file.ok()) return std::move(file.error().add_context("loading " + path));
  auto model = from_file(std::move(file).value());
  if (!model.ok()) return std::move(model.error().add_context("loading " + path));
  return model;
}

Result<std::unique_ptr<Model>> Model::from_file(gguf::GgufFile file) {
  INGOT_ASSIGN_OR_RETURN(ModelConfig config, ModelConfig::from_gguf(file));
  INGOT_ASSIGN_OR_RETURN(ModelWeights weights, ModelWeights::bind(file, config));
  return std::unique_ptr<Model>(new Model(std::move(file), std::move(config), std::move(weights)));
}

// The GgufFile moves its mapping, not the bytes: weights bound to the map
// before the move stay valid after it.
Model::Model(gguf::GgufFile file, ModelConfig config, ModelWeights weights)
    : file_(std::move(file)),
      config_(std::move(config)),
      weights_(std::move(weights)),
      forward_pass_(config_, weights_),
      prediction_pass_(config_, weights_) {}

void Model::prepare_for_context(int64_t context_per_sequence) {
  if (config_.long_rope_factors.empty()) return;
  config_.rope.freq_factors = context_per_sequence > config_.rope_original_context
                                  ? config_.long_rope_factors
                                  : config_.short_rope_factors;
  forward_pass_.reset_rope();
  prediction_pass_.reset_rope();
}

int64_t Model::kv_bytes_per_position() const {
  int64_t bytes = 0;
  for (int64_t layer = 0; layer < config_.n_layers; ++layer) {
    if (!config_.is_recurrent(layer) && config_.kv_source[size_t(layer)] == layer) {
      bytes += config_.kv_dim_of(layer) * 2 * int64_t(sizeof(uint16_t));
    }
  }
  return bytes;
}

KvCache Model::make_cache(int64_t n_cells, int64_t cache_cells) const {
  std::vector<KvCache::LayerShape> layers;
  for (int64_t layer = 0; layer < config_.n_layers; ++layer) {
    if (!config_.is_recurrent(layer) && config_.kv_source[size_t(layer)] == layer) {
      layers.push_back({config_.n_kv_heads_of(layer), config_.head_dim_of(layer)});
    }
  }
  KvCache cache(std::move(layers), n_cells, KvCache::kDefaultBlockSize, cache_cells);
  if (config_.n_recurrent_layers > 0) {
    cache.add_recurrent_state({config_.n_recurrent_layers, config_.linear.conv_state_floats(),
                               config_.linear.delta_state_floats()});
  }
  return cache;
}

KvCache Model::make_prediction_cache(int64_t n_cells) const {
  return KvCache(1, config_.n_kv_heads, config_.head_dim, n_cells);
}

}  // namespace ingot::model
