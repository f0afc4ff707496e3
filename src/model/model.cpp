#include "model/model.h"

#include <algorithm>
#include <string>
#include <utility>

#include "kernels/kv_tiles.h"

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
      forward_pass_(make_forward_pass(config_, weights_)),
      rank_head_(config_, weights_) {
  if (weights_.prediction) {
    prediction_pass_ = std::make_unique<PredictionPass>(config_, *weights_.prediction);
  }
  if (config_.traits.diffusion) canvas_pass_ = std::make_unique<CanvasPass>(config_, weights_);
}

Result<Logits> Model::forward_canvas(const Batch& batch, std::span<const float* const> previous,
                                     KvCache& cache, ThreadPool& pool) {
  if (!canvas_pass_) return unsupported("the model does not denoise canvases");
  return canvas_pass_->run(batch, previous, cache, pool);
}

Result<Logits> Model::forward_prediction(const Batch& batch, const float* hidden, KvCache& cache,
                                         ThreadPool& pool) {
  if (!prediction_pass_) return unsupported("the model has no multi-token-prediction block");
  return prediction_pass_->run(batch, hidden, cache, pool);
}

void Model::prepare_for_context(int64_t context_per_sequence) {
  if (config_.long_rope_factors.empty()) return;
  config_.rope.freq_factors = context_per_sequence > config_.rope_original_context
                                  ? config_.long_rope_factors
                                  : config_.short_rope_factors;
  forward_pass_->reset_rope();
  if (prediction_pass_) prediction_pass_->reset_rope();
}

std::vector<KvCache::LayerShape> kv_cache_layers(const ModelConfig& config) {
  std::vector<KvCache::LayerShape> layers;
  for (int64_t layer = 0; layer < config.n_layers; ++layer) {
    if (!config.is_recurrent(layer) && config.kv_source[size_t(layer)] == layer) {
      layers.push_back({config.n_kv_heads_of(layer), config.head_dim_of(layer),
                        config.is_sliding(layer) && config.swa.window > 0});
    }
  }
  return layers;
}

int64_t Model::kv_bytes_per_position(KvCache::Types types) const {
  return KvCache::bytes_per_position(kv_cache_layers(config_), types);
}

Status Model::check_cache_types(KvCache::Types types) const {
  for (kernels::ElementType type : {types.keys, types.values}) {
    if (!kernels::kv_type_supported(type)) {
      return invalid_argument("the KV cache holds f16, q8_0 or q4_0, not " +
                              std::string(kernels::element_type_name(type)));
    }
    for (const KvCache::LayerShape& layer : kv_cache_layers(config_)) {
      if (!kernels::kv_head_dim_supported(type, layer.head_dim)) {
        return invalid_argument("a " + std::string(kernels::element_type_name(type)) +
                                " KV cache needs heads of a multiple of 32 dimensions; this "
                                "model's have " +
                                std::to_string(layer.head_dim));
      }
    }
  }
  return {};
}

KvCache Model::make_cache(int64_t n_cells, int64_t cache_cells, KvCache::Types types,
                          KvCache::WindowPlan window) const {
  KvCache cache(kv_cache_layers(config_), n_cells, KvCache::kDefaultBlockSize, cache_cells, types,
                window);
  if (config_.n_recurrent_layers > 0) {
    cache.add_recurrent_state({config_.n_recurrent_layers, config_.linear.conv_state_floats(),
                               config_.linear.delta_state_floats()});
  }
  return cache;
}

KvCache::WindowPlan Model::window_plan(int64_t sequences, int64_t step_tokens) const {
  return kv_window_plan(config_, sequences, step_tokens);
}

KvCache::WindowPlan kv_window_plan(const ModelConfig& config, int64_t sequences,
                                   int64_t step_tokens) {
  const int64_t window = config.swa.window;
  const bool sliding =
      std::any_of(config.swa.layers.begin(), config.swa.layers.end(), [](bool s) { return s; });
  if (window <= 0 || !sliding) return {};
  const int64_t block = KvCache::kDefaultBlockSize;
  const int64_t per_sequence = (window + block - 1) / block + 2;
  const int64_t blocks = 2 * per_sequence * sequences + step_tokens / block + sequences;
  return {window, blocks * block};
}

KvCache Model::make_prediction_cache(int64_t n_cells) const {
  return KvCache(1, config_.n_kv_heads, config_.head_dim, n_cells);
}

}  // namespace ingot::model
