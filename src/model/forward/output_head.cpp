#include "model/forward/output_head.h"

#include <algorithm>
#include <cmath>

#include "kernels/ops_norm.h"

namespace ingot::model {

Logits OutputHead::run(const Batch& batch, const Residual& residual, const std::vector<float>& norm,
                       const kernels::WeightMatrix& head, ThreadPool& pool) {
  grow(final_, batch.n_logits() * config_.n_embd);
  grow(logits_, batch.n_logits() * config_.n_vocab);
  const int64_t n_rows = normalize(batch, residual, norm);
  if (n_rows > 0) {
    packed_final_.reset(final_.data(), n_rows, config_.n_embd);
    kernels::matmul(head, packed_final_.for_weight(head, pool), logits_.data(), config_.n_vocab,
                    pool);
  }
  soft_cap(n_rows);
  return Logits{logits_.data(), n_rows, config_.n_vocab,
                batch.keeps_hidden() ? hidden_.data() : nullptr};
}

// final_ <- the normed rows that want logits; returns how many.
int64_t OutputHead::normalize(const Batch& batch, const Residual& residual,
                              const std::vector<float>& norm) {
  const int64_t n_embd = config_.n_embd;
  if (!batch.keeps_hidden()) {
    kernels::rms_norm(residual.x.data(), norm.data(), final_.data(), residual.n_rows, n_embd,
                      config_.rms_eps);
    return residual.n_rows;
  }
  grow(hidden_, batch.size() * n_embd);
  kernels::rms_norm(residual.x.data(), norm.data(), hidden_.data(), residual.n_rows, n_embd,
                    config_.rms_eps);
  int64_t n_rows = 0;
  const std::vector<BatchEntry>& entries = batch.entries();
  for (size_t t = 0; t < entries.size(); ++t) {
    if (!entries[t].wants_logits) continue;
    std::copy_n(hidden_.data() + t * n_embd, n_embd, final_.data() + n_rows++ * n_embd);
  }
  return n_rows;
}

void OutputHead::soft_cap(int64_t n_rows) {
  const float cap = config_.gemma.final_softcap;
  if (cap <= 0.0f) return;
  for (int64_t i = 0; i < n_rows * config_.n_vocab; ++i) {
    logits_[size_t(i)] = cap * std::tanh(logits_[size_t(i)] / cap);
  }
}

}  // namespace ingot::model
