#pragma once
// DiffusionGemma's soft embedding of a canvas position: its token
// probabilities at the previous step times the embedding table,
//   s = sum over v of p_v E_v,
// one row per position, with p and E rounded to F16 as the reference's
// product takes them (an F16 copy of the table times probabilities it
// converts to F16). A probability under 2^-25 rounds to zero and is left
// out: a trained model's distribution puts nearly all its vocabulary
// there, so the sum costs the few tokens that matter rather than the
// whole vocabulary.

#include <cstdint>
#include <span>
#include <vector>

#include "kernels/matmul.h"
#include "util/thread_pool.h"

namespace ingot::model {

class SoftEmbedding {
 public:
  // out[r] (n_embd values) <- the sum for probabilities[r] (n_vocab
  // values); a null row gives zeros.
  void run(std::span<const float* const> probabilities, const kernels::WeightMatrix& table,
           int64_t n_vocab, int64_t n_embd, float* out, ThreadPool& pool);

 private:
  void accumulate_range(std::span<const float* const> probabilities,
                        const kernels::WeightMatrix& table, int64_t first, int64_t last,
                        int64_t n_embd, float* partial);

  std::vector<float> partials_;  // [tasks][rows][n_embd]
};

}  // namespace ingot::model
