#pragma once
// The first rows of the residual stream: each entry's token's row of an
// embedding table, scaled by sqrt(n_embd) where the architecture scales it
// (Gemma).

#include <cstdint>

#include "kernels/matmul.h"
#include "model/batch.h"
#include "model/model_config.h"

namespace ingot::model {

// x <- [T][n_embd] the rows of `table` for the batch's tokens.
void embed_tokens(const Batch& batch, const kernels::WeightMatrix& table, const ModelConfig& config,
                  float* x);

}  // namespace ingot::model
