#pragma once
// What a batch carries from block to block: the residual stream, the rows
// of it still computed, and a scratch row per token where each block puts
// its normed input and then its output.

#include <cstdint>
#include <vector>

#include "model/batch.h"
#include "model/packed_input.h"
#include "model/row_math.h"

namespace ingot::model {

struct Residual {
  std::vector<float> x;       // [T][n_embd] the residual stream
  std::vector<float> normed;  // [T][n_embd] a block's normed input, then its output
  PackedInput packed_normed;  // `normed` packed for the block's first projections
  // The rows of x still computed: every entry until the last layer, then
  // only those that want logits. rows[r] is row r's entry.
  std::vector<int64_t> rows;
  int64_t n_rows = 0;

  // Room for n_tokens rows, every one of them computed.
  void start(int64_t n_tokens, int64_t n_embd);

  // Keeps the rows of the entries that want logits, in entry order; the
  // blocks compact their own per-row buffers after it by `rows`.
  void keep_rows_wanting_logits(const Batch& batch, int64_t n_embd);
};

// Moves row rows[r] of `buffer` (rows of `width`) to row r, for the first
// n_rows rows: rows[r] >= r and ascending, so the moves never overwrite a
// row still to move.
void compact_rows(float* buffer, int64_t width, const int64_t* rows, int64_t n_rows);

}  // namespace ingot::model
