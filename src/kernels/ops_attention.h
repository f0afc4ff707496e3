#pragma once
// Attention of one query head over cached keys and values (F16), computed
// flash-style: the cached positions arrive in runs (the KV cache's blocks)
// and an online softmax folds each run into a running maximum, a running
// denominator and an unnormalized output, so no score vector as long as the
// context is ever stored:
//   s_j = scale * q.k_j
//   m'  = max(m, max_j s_j)
//   l'  = l e^(m - m') + sum_j e^(s_j - m')
//   o'  = o e^(m - m') + sum_j e^(s_j - m') v_j
// and the result is o / l once every run has been seen.

#include <cmath>
#include <cstdint>

namespace ingot::kernels {

struct AttentionState {
  float max_score = -INFINITY;
  float denominator = 0.0f;
};

// Clears `state` and the head_dim floats of `output` before the first run.
void attention_begin(AttentionState& state, float* output, int64_t head_dim);

// Folds `n` cached positions into the state: keys and values are [n][head_dim]
// F16 rows, consecutive. q and output hold head_dim floats.
void attention_accumulate(const float* q, const uint16_t* keys, const uint16_t* values, int64_t n,
                          int64_t head_dim, float scale, AttentionState& state, float* output);

// output <- output / denominator.
void attention_end(const AttentionState& state, float* output, int64_t head_dim);

namespace scalar {
void attention_accumulate(const float* q, const uint16_t* keys, const uint16_t* values, int64_t n,
                          int64_t head_dim, float scale, AttentionState& state, float* output);
}  // namespace scalar

namespace avx512 {
void attention_accumulate(const float* q, const uint16_t* keys, const uint16_t* values, int64_t n,
                          int64_t head_dim, float scale, AttentionState& state, float* output);
}  // namespace avx512

}  // namespace ingot::kernels
