#include "kernels/ops_attention.h"

#include <algorithm>

#include "kernels/half.h"
#include "kernels/ops_dispatch.h"

namespace ingot::kernels {

void attention_begin(AttentionState& state, float* output, int64_t head_dim) {
  state = AttentionState{};
  std::fill(output, output + head_dim, 0.0f);
}

void attention_end(const AttentionState& state, float* output, int64_t head_dim) {
  const float inverse = state.denominator > 0.0f ? 1.0f / state.denominator : 0.0f;
  for (int64_t d = 0; d < head_dim; ++d) output[d] *= inverse;
}

namespace scalar {
namespace {

float dot_f16(const float* q, const uint16_t* k, int64_t n) {
  float sum = 0.0f;
  for (int64_t d = 0; d < n; ++d) sum += q[d] * f16_to_f32(k[d]);
  return sum;
}

}  // namespace

void attention_accumulate(const float* q, const uint16_t* keys, const uint16_t* values, int64_t n,
                          int64_t head_dim, float scale, AttentionState& state, float* output) {
  // Runs are short (a cache block), so scores go through a small buffer in
  // chunks: one rescale of the output per chunk, not per position.
  constexpr int64_t kChunk = 64;
  float scores[kChunk];
  for (int64_t start = 0; start < n; start += kChunk) {
    const int64_t count = std::min(kChunk, n - start);
    const uint16_t* k = keys + start * head_dim;
    const uint16_t* v = values + start * head_dim;
    float chunk_max = -INFINITY;
    for (int64_t j = 0; j < count; ++j) {
      scores[j] = scale * dot_f16(q, k + j * head_dim, head_dim);
      chunk_max = std::max(chunk_max, scores[j]);
    }
    const float new_max = std::max(state.max_score, chunk_max);
    const float rescale = std::exp(state.max_score - new_max);
    state.denominator *= rescale;
    for (int64_t d = 0; d < head_dim; ++d) output[d] *= rescale;
    for (int64_t j = 0; j < count; ++j) {
      const float weight = std::exp(scores[j] - new_max);
      state.denominator += weight;
      const uint16_t* v_j = v + j * head_dim;
      for (int64_t d = 0; d < head_dim; ++d) output[d] += weight * f16_to_f32(v_j[d]);
    }
    state.max_score = new_max;
  }
}

}  // namespace scalar

// Over a long context this is the one op whose cost grows with the context:
// the vector path matters here most.
void attention_accumulate(const float* q, const uint16_t* keys, const uint16_t* values, int64_t n,
                          int64_t head_dim, float scale, AttentionState& state, float* output) {
  if (use_avx512()) {
    return avx512::attention_accumulate(q, keys, values, n, head_dim, scale, state, output);
  }
  scalar::attention_accumulate(q, keys, values, n, head_dim, scale, state, output);
}

}  // namespace ingot::kernels
