#pragma once
// Attention of the query heads that share one KV head (grouped-query
// attention) over cached keys and values in F16, computed flash-style: the
// cached positions arrive in runs (the KV cache's blocks) and an online
// softmax folds each run into a running maximum, a running denominator and
// an unnormalized output per head, so no score vector as long as the
// context is ever stored:
//   s_j = scale * q.k_j
//   m'  = max(m, max_j s_j)
//   l'  = l e^(m - m') + sum_j e^(s_j - m')
//   o'  = o e^(m - m') + sum_j e^(s_j - m') v_j
// and each head's result is o / l once every run has been seen.
//
// Gemma 2 soft-caps each score before the softmax: s_j = c tanh(s_j / c).
//
// Keys are stored transposed, dimension-major (keys[d * key_stride + j]):
// sixteen positions' scores are then sixteen lanes of one vector, built by
// broadcasting q[d] against a row of the tile, with no horizontal sums; and
// every head of the group reuses each converted row. Values stay
// position-major (values[j * head_dim + d]), the order the weighted sum
// reads them in.

#include <cmath>
#include <cstdint>

namespace ingot::kernels {

// How q.k becomes a score: times `scale`, then soft-capped where `softcap`
// is set (0: not).
struct ScoreScale {
  ScoreScale(float scale_, float softcap_ = 0.0f) : scale(scale_), softcap(softcap_) {}  // NOLINT
  float scale;
  float softcap;
};

struct AttentionState {
  float max_score = -INFINITY;
  float denominator = 0.0f;
};

// Clears `state` and the head_dim floats of `output` before the first run.
void attention_begin(AttentionState& state, float* output, int64_t head_dim);

// Folds `n` cached positions into the states of `n_q` query heads: q and
// outputs hold n_q rows of head_dim floats, states n_q entries.
void attention_accumulate(const float* q, int64_t n_q, const uint16_t* keys, int64_t key_stride,
                          const uint16_t* values, int64_t n, int64_t head_dim, ScoreScale scale,
                          AttentionState* states, float* outputs);

// gpt-oss's sink: a logit with no value, `sink` as it is (unscaled),
// folded into the softmax's running maximum and denominator before the end.
void attention_fold_sink(AttentionState& state, float* output, int64_t head_dim, float sink);

// output <- output / denominator.
void attention_end(const AttentionState& state, float* output, int64_t head_dim);

namespace scalar {
void attention_accumulate(const float* q, int64_t n_q, const uint16_t* keys, int64_t key_stride,
                          const uint16_t* values, int64_t n, int64_t head_dim, ScoreScale scale,
                          AttentionState* states, float* outputs);
}  // namespace scalar

}  // namespace ingot::kernels
