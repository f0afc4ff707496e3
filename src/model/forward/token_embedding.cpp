#include "model/forward/token_embedding.h"

#include <cmath>

#include "kernels/dequantize.h"

namespace ingot::model {

void embed_tokens(const Batch& batch, const kernels::WeightMatrix& table, const ModelConfig& config,
                  float* x) {
  const int64_t n_embd = config.n_embd;
  const std::vector<BatchEntry>& entries = batch.entries();
  for (size_t t = 0; t < entries.size(); ++t) {
    const auto* row = static_cast<const uint8_t*>(table.data) + entries[t].token * table.row_stride;
    kernels::dequantize_row(table.type, row, x + t * n_embd, n_embd);
  }
  if (!config.traits.scaled_embedding) return;
  const float scale = std::sqrt(float(n_embd));
  for (int64_t i = 0; i < batch.size() * n_embd; ++i) x[i] *= scale;
}

}  // namespace ingot::model
