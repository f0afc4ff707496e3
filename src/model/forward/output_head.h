#pragma once
// The end of a decoder's pass: the final norm and the vocabulary
// projection of the rows that want logits,
//   logits = Wout n(x),  then c tanh(logits / c) where the file caps them
// and, when the batch keeps hidden states, every entry's normed row.

#include <cstdint>
#include <vector>

#include "kernels/matmul.h"
#include "model/forward/residual.h"
#include "model/model_config.h"
#include "model/packed_input.h"

namespace ingot::model {

class OutputHead {
 public:
  explicit OutputHead(const ModelConfig& config) : config_(config) {}

  // After the last layer x holds exactly the rows that want logits, in
  // entry order; or, when the batch keeps hidden states, every entry.
  Logits run(const Batch& batch, const Residual& residual, const std::vector<float>& norm,
             const kernels::WeightMatrix& head, ThreadPool& pool);
  // No rows: an empty batch's logits.
  Logits none() { return Logits{logits_.data(), 0, config_.n_vocab}; }

 private:
  int64_t normalize(const Batch& batch, const Residual& residual, const std::vector<float>& norm);
  void soft_cap(int64_t n_rows);

  const ModelConfig& config_;
  std::vector<float> final_;   // [n_logits][n_embd]
  std::vector<float> hidden_;  // [T][n_embd] when the batch keeps hidden states
  std::vector<float> logits_;  // [n_logits][n_vocab]
  PackedInput packed_final_;
};

}  // namespace ingot::model
