#pragma once
// A decoder's pass: the tokens' embedding rows, then for each layer the
// blocks its plan chose, then the output head. The whole batch goes through
// each matmul together, so B sequences decoding one token each cost one
// batched matmul per weight, not B. Buffers grow to the largest batch seen
// and are reused: no allocation per step once the batch sizes settle.

#include "model/forward/adapted_matmul.h"
#include "model/forward/forward_pass.h"
#include "model/forward/kv_placement.h"
#include "model/forward/layer_plan.h"
#include "model/forward/output_head.h"
#include "model/forward/residual.h"

namespace ingot::model {

class DecoderPass final : public ForwardPass {
 public:
  DecoderPass(const ModelConfig& config, const ModelWeights& weights);

  Result<Logits> run(const Batch& batch, KvCache& cache, ThreadPool& pool) override;
  void reset_rope() override;

 private:
  void prepare_blocks(Step& step);
  void run_layers(Step& step);
  void finish_blocks(const Batch& batch, KvCache& cache);

  const ModelConfig& config_;
  const ModelWeights& weights_;
  KvPlacement placement_;
  Residual residual_;
  AdaptedMatmul adapted_;
  LayerPlan plan_;
  OutputHead head_;
};

}  // namespace ingot::model
