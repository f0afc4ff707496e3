#include "sampling/token_logprobs.h"

#include <algorithm>
#include <cmath>

#include "kernels/ops_exp_sum.h"

namespace ingot::sampling {

ScoredToken score_token(std::span<const float> logits, int32_t id, int32_t n_top,
                        Candidates& scratch) {
  float best = max_logit(logits);
  const double sum = kernels::sum_exp(logits.data(), static_cast<int64_t>(logits.size()), best);
  auto log_z = static_cast<float>(best + std::log(sum));
  ScoredToken scored;
  scored.logprob = logits[static_cast<size_t>(id)] - log_z;
  n_top = std::clamp(n_top, 0, 20);
  if (n_top == 0) return scored;
  scratch.reset_top_k(logits, static_cast<size_t>(n_top));
  for (const Candidate& c : scratch.items()) scored.top.push_back({c.id, c.logit - log_z});
  return scored;
}

}  // namespace ingot::sampling
