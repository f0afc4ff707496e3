#include "model/forward/residual.h"

#include <algorithm>

namespace ingot::model {

void Residual::start(int64_t n_tokens, int64_t n_embd) {
  grow(x, n_tokens * n_embd);
  grow(normed, n_tokens * n_embd);
  grow(rows, n_tokens);
  for (int64_t t = 0; t < n_tokens; ++t) rows[size_t(t)] = t;
  n_rows = n_tokens;
}

void Residual::keep_rows_wanting_logits(const Batch& batch, int64_t n_embd) {
  const std::vector<BatchEntry>& entries = batch.entries();
  int64_t kept = 0;
  for (int64_t t = 0; t < int64_t(entries.size()); ++t) {
    if (entries[size_t(t)].wants_logits) rows[size_t(kept++)] = t;
  }
  n_rows = kept;
  compact_rows(x.data(), n_embd, rows.data(), n_rows);
}

void compact_rows(float* buffer, int64_t width, const int64_t* rows, int64_t n_rows) {
  for (int64_t r = 0; r < n_rows; ++r) {
    if (rows[r] != r) std::copy_n(buffer + rows[r] * width, width, buffer + r * width);
  }
}

}  // namespace ingot::model
