#include "kernels/ops_attention.h"

#include <algorithm>

#include "kernels/half.h"
#include "kernels/kernel_table.h"

namespace ingot::kernels {

void attention_begin(AttentionState& state, float* output, int64_t head_dim) {
  state = AttentionState{};
  std::fill(output, output + head_dim, 0.0f);
}

void attention_fold_sink(AttentionState& state, float* output, int64_t head_dim, float sink) {
  const float max_score = std::max(state.max_score, sink);
  const float rescale = std::exp(state.max_score - max_score);
  for (int64_t d = 0; d < head_dim; ++d) output[d] *= rescale;
  state.denominator = state.denominator * rescale + std::exp(sink - max_score);
  state.max_score = max_score;
}

void attention_end(const AttentionState& state, float* output, int64_t head_dim) {
  const float inverse = state.denominator > 0.0f ? 1.0f / state.denominator : 0.0f;
  for (int64_t d = 0; d < head_dim; ++d) output[d] *= inverse;
}

namespace scalar {
namespace {

// One head over one chunk of at most kChunk positions.
constexpr int64_t kChunk = 64;

void accumulate_head(const float* q, const uint16_t* keys, int64_t key_stride,
                     const uint16_t* values, int64_t count, int64_t head_dim, ScoreScale scale,
                     AttentionState& state, float* output) {
  float scores[kChunk];
  float chunk_max = -INFINITY;
  for (int64_t j = 0; j < count; ++j) {
    float dot = 0.0f;
    for (int64_t d = 0; d < head_dim; ++d) dot += q[d] * f16_to_f32(keys[d * key_stride + j]);
    scores[j] = scale.scale * dot;
    if (scale.softcap > 0.0f) scores[j] = scale.softcap * std::tanh(scores[j] / scale.softcap);
    chunk_max = std::max(chunk_max, scores[j]);
  }
  const float new_max = std::max(state.max_score, chunk_max);
  const float rescale = std::exp(state.max_score - new_max);
  state.denominator *= rescale;
  for (int64_t d = 0; d < head_dim; ++d) output[d] *= rescale;
  for (int64_t j = 0; j < count; ++j) {
    const float weight = std::exp(scores[j] - new_max);
    state.denominator += weight;
    const uint16_t* v = values + j * head_dim;
    for (int64_t d = 0; d < head_dim; ++d) output[d] += weight * f16_to_f32(v[d]);
  }
  state.max_score = new_max;
}

}  // namespace

void attention_accumulate(const float* q, int64_t n_q, const uint16_t* keys, int64_t key_stride,
                          const uint16_t* values, int64_t n, int64_t head_dim, ScoreScale scale,
                          AttentionState* states, float* outputs) {
  for (int64_t start = 0; start < n; start += kChunk) {
    const int64_t count = std::min(kChunk, n - start);
    for (int64_t h = 0; h < n_q; ++h) {
      accumulate_head(q + h * head_dim, keys + start, key_stride, values + start * head_dim, count,
                      head_dim, scale, states[h], outputs + h * head_dim);
    }
  }
}

}  // namespace scalar

// Over a long context this is the one op whose cost grows with the context:
// the vector path matters here most.
void attention_accumulate(const float* q, int64_t n_q, const uint16_t* keys, int64_t key_stride,
                          const uint16_t* values, int64_t n, int64_t head_dim, ScoreScale scale,
                          AttentionState* states, float* outputs) {
  active_kernels().attention_accumulate(q, n_q, keys, key_stride, values, n, head_dim, scale,
                                        states, outputs);
}

}  // namespace ingot::kernels
