#pragma once
// A hybrid model's linear-attention layer as a pre-norm block,
//   x += LinearAttention(n(x))      (model/linear_attention.h)
// over every entry of the batch, since each sequence's recurrent state must
// take in every token; in the last layer only the rows that want logits go
// on after it. It also keeps the states' lengths and the checkpoints the
// entries ask for.

#include <cstdint>
#include <span>
#include <vector>

#include "model/forward/block.h"
#include "model/linear_attention.h"
#include "model/model_config.h"
#include "model/weights.h"

namespace ingot::model {

class LinearAttentionBlock final : public Block {
 public:
  LinearAttentionBlock(const ModelConfig& config, std::span<const LayerWeights> layers)
      : config_(config), layers_(layers), linear_attention_(config) {}

  // Before the batch's layers: entries that ask for a checkpoint get one in
  // the cache's recurrent states, the sequence's last step's given back first.
  void prepare(const Batch& batch, KvCache& cache);
  void run(int64_t layer, Step& step) override;
  // After the batch's layers: every sequence's state has taken its entries.
  void finish(const Batch& batch, KvCache& cache) const;

 private:
  const ModelConfig& config_;
  std::span<const LayerWeights> layers_;
  LinearAttention linear_attention_;
  std::vector<float*> checkpoints_;  // per entry when any asks for one
};

}  // namespace ingot::model
