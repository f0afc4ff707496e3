#pragma once
// A loaded model: the mapped GGUF file, its configuration, its weights
// bound in place, and the forward pass. One engine thread owns it and calls
// forward(); the thread pool splits each matmul's rows.

#include <memory>
#include <span>
#include <string>

#include "gguf/reader.h"
#include "model/batch.h"
#include "model/forward/canvas_pass.h"
#include "model/forward/forward_pass.h"
#include "model/forward/prediction_pass.h"
#include "model/kv_cache.h"
#include "model/model_config.h"
#include "model/rank_head.h"
#include "model/weights.h"
#include "util/status.h"
#include "util/thread_pool.h"

namespace ingot::model {

// The shapes of the layers that keep their own keys and values, in the
// KV cache's order.
std::vector<KvCache::LayerShape> kv_cache_layers(const ModelConfig& config);
// See Model::window_plan.
KvCache::WindowPlan kv_window_plan(const ModelConfig& config, int64_t sequences,
                                   int64_t step_tokens);

class Model {
 public:
  static Result<std::unique_ptr<Model>> load(const std::string& path);
  static Result<std::unique_ptr<Model>> from_file(gguf::GgufFile file);

  Model(const Model&) = delete;
  Model& operator=(const Model&) = delete;

  const ModelConfig& config() const { return config_; }
  const ModelWeights& weights() const { return weights_; }
  // The file, for the tokenizer and chat template in its metadata.
  const gguf::GgufFile& file() const { return file_; }

  // LongRoPE files rotate by their long factors when each sequence may run
  // past the original context, else by their short ones, as llama.cpp
  // chooses by the context it is given; other files are left as they are.
  void prepare_for_context(int64_t context_per_sequence);

  // A cache for `n_cells` positions over all sequences together.
  // `cache_cells` more for the prompt cache (see KvCache). With a window
  // plan, the sliding-window layers keep only their windows.
  KvCache make_cache(int64_t n_cells, int64_t cache_cells = 0, KvCache::Types types = {},
                     KvCache::WindowPlan window = {}) const;
  // The window plan for `sequences` sequences run together, each step
  // adding at most `step_tokens` positions in all: every sequence's window
  // and a block on each side, the step's blocks, and as much again for
  // finished sequences' windows to resume from. None for a model without
  // sliding-window layers.
  KvCache::WindowPlan window_plan(int64_t sequences, int64_t step_tokens) const;
  // Whether the cache can store keys and values in `types` for this
  // model's head sizes.
  Status check_cache_types(KvCache::Types types) const;
  // The keys and values one position takes across the layers that keep
  // their own.
  int64_t kv_bytes_per_position(KvCache::Types types = {}) const;

  // Runs the batch; see ForwardPass::run.
  Result<Logits> forward(const Batch& batch, KvCache& cache, ThreadPool& pool) {
    return forward_pass_->run(batch, cache, pool);
  }

  // DiffusionGemma's denoising step over whole canvases; see CanvasPass.
  // (forward() is its encoder: prompts and committed canvases, causally.)
  Result<Logits> forward_canvas(const Batch& batch, std::span<const float* const> previous,
                                KvCache& cache, ThreadPool& pool);

  // Multi-token prediction (Qwen3.5's nextn block), when the file has it:
  // its own cache, and its pass (model/forward/prediction_pass.h).
  bool has_prediction_block() const { return prediction_pass_ != nullptr; }

  // A reranker's head (the file's cls.output), or null.
  const RankHead* rank_head() const {
    return config_.classifier_outputs > 0 ? &rank_head_ : nullptr;
  }
  KvCache make_prediction_cache(int64_t n_cells) const;
  Result<Logits> forward_prediction(const Batch& batch, const float* hidden, KvCache& cache,
                                    ThreadPool& pool);

 private:
  Model(gguf::GgufFile file, ModelConfig config, ModelWeights weights);

  gguf::GgufFile file_;
  ModelConfig config_;
  ModelWeights weights_;
  std::unique_ptr<ForwardPass> forward_pass_;
  std::unique_ptr<PredictionPass> prediction_pass_;  // null without a prediction block
  std::unique_ptr<CanvasPass> canvas_pass_;          // null but for a diffusion model
  RankHead rank_head_;
};

}  // namespace ingot::model
