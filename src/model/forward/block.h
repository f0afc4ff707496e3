#pragma once
// A block is one part of a layer (attention, linear attention, a
// feed-forward, an architecture's end of a layer) with its weights and its
// own scratch. A forward pass runs, for each layer, the blocks its plan
// chose for that layer (model/forward/layer_plan.h) over one Step.

#include <cstdint>

#include "model/batch.h"
#include "model/forward/kv_placement.h"
#include "model/forward/residual.h"
#include "model/kv_cache.h"
#include "util/thread_pool.h"

namespace ingot::model {

// What every block of one step reads and writes.
struct Step {
  const Batch& batch;
  KvCache& cache;
  ThreadPool& pool;
  const KvPlacement& placement;
  Residual& residual;
  // Whether rows that want no logits leave in this layer, once its keys
  // and values are cached (the last layer, unless the batch keeps hidden
  // states): that saves the layer's rest for the rest of a prompt chunk.
  bool drops_rows = false;
};

class Block {
 public:
  virtual ~Block() = default;
  // Runs layer `layer` (an index into the block's weights) over the step.
  virtual void run(int64_t layer, Step& step) = 0;
};

}  // namespace ingot::model
