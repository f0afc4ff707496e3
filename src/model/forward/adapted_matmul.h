#pragma once
// A block's projections with the batch's LoRA deltas added (see
// model/lora_deltas.h): the base matmuls and every adapter's A in one
// parallel region, then every adapter's B in a second.

#include <cstdint>
#include <span>
#include <vector>

#include "kernels/matmul.h"
#include "model/batch.h"
#include "model/lora_deltas.h"
#include "model/packed_input.h"
#include "util/thread_pool.h"

namespace ingot::model {

class AdaptedMatmul {
 public:
  // Runs `products`; when the batch has adapters, adds the deltas of
  // `outputs` in layer `layer` computed from `lora_input`: row r of n_rows
  // belongs to entry rows[r], or entry r when rows is null.
  void run(std::span<const kernels::MatmulProduct> products, std::span<const LoraOutput> outputs,
           int64_t layer, const Batch& batch, const int64_t* rows, int64_t n_rows,
           PackedInput& lora_input, ThreadPool& pool);

 private:
  LoraDeltas deltas_;
  std::vector<kernels::MatmulProduct> products_;  // a projection's, then its adapters' A
};

// Runs `products` through `adapted` when it is given (a block that serves
// adapters), else plainly.
void run_projections(AdaptedMatmul* adapted, std::span<const kernels::MatmulProduct> products,
                     std::span<const LoraOutput> outputs, int64_t layer, const Batch& batch,
                     const int64_t* rows, int64_t n_rows, PackedInput& lora_input,
                     ThreadPool& pool);

}  // namespace ingot::model
