#pragma once
// A model's forward pass: a batch's tokens in, their keys and values in the
// cache, the logits (or an encoder's hidden states) out. A decoder runs
// each layer's blocks (model/forward/layer_plan.h) between its embedding
// and its output head; an encoder runs its post-norm layers over whole
// sequences.

#include <memory>

#include "model/batch.h"
#include "model/kv_cache.h"
#include "model/model_config.h"
#include "model/weights.h"
#include "util/status.h"
#include "util/thread_pool.h"

namespace ingot::model {

class ForwardPass {
 public:
  virtual ~ForwardPass() = default;

  // Writes the batch's keys and values into `cache` and returns the logits
  // of the entries that want them. On error the cache is as it was.
  virtual Result<Logits> run(const Batch& batch, KvCache& cache, ThreadPool& pool) = 0;

  // Rebuilds the rotation from the config's RoPE (Model::prepare_for_context).
  virtual void reset_rope() {}
};

// The pass for the config's architecture, over `weights`; both outlive it.
std::unique_ptr<ForwardPass> make_forward_pass(const ModelConfig& config,
                                               const ModelWeights& weights);

}  // namespace ingot::model
