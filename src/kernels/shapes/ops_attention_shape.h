#pragma once
// attention_accumulate (ops_attention.h) written once for every vector
// width. V is a Floats policy (ops_float_shape.h) that also gives min, div,
// load_f16 (kLanes F16 values widened) and load_f16_part (the first
// `count`, zeros past them). One step takes kLanes positions: each head's
// scores are one vector, built by broadcasting q[d] against a row of the
// transposed key tile, each converted row serving every head of the group;
// up to kMaxHeads heads keep their scores and outputs in registers.
// Include only from the SIMD files that define V; everything here is in an
// unnamed namespace so that each gets its own copy for its instructions.

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "kernels/ops_attention.h"

namespace ingot::kernels {
namespace {

constexpr int kMaxAttentionHeads = 8;
constexpr int64_t kMaxAttentionLanes = 16;

// Lane j of the result is 0 for j < count and -inf from there: added to a
// step's scores, it gives the positions past the run no weight.
template <class V>
inline typename V::F past_run_bias(int64_t count) {
  alignas(64) static constexpr float kBias[2 * kMaxAttentionLanes] = {
      0,         0,         0,         0,         0,         0,         0,         0,
      0,         0,         0,         0,         0,         0,         0,         0,
      -INFINITY, -INFINITY, -INFINITY, -INFINITY, -INFINITY, -INFINITY, -INFINITY, -INFINITY,
      -INFINITY, -INFINITY, -INFINITY, -INFINITY, -INFINITY, -INFINITY, -INFINITY, -INFINITY};
  return V::load(kBias + kMaxAttentionLanes - count);
}

template <class V>
inline typename V::F load_f16_lanes(const uint16_t* p, int64_t count) {
  return count >= V::kLanes ? V::load_f16(p) : V::load_f16_part(p, count);
}

template <class V>
inline typename V::F load_lanes(const float* p, int64_t count) {
  return count >= V::kLanes ? V::load(p) : V::load_part(p, count, 0.0f);
}

template <class V>
inline void store_lanes(float* p, typename V::F v, int64_t count) {
  if (count >= V::kLanes) return V::store(p, v);
  V::store_part(p, v, count);
}

// c tanh(s / c), tanh(x) = (e^2x - 1) / (e^2x + 1) with x clamped where
// tanh is 1 to float precision; s itself when c is 0.
template <class V>
inline typename V::F soft_cap(typename V::F s, float c) {
  if (c <= 0.0f) return s;
  const typename V::F x =
      V::max(V::min(V::div(s, V::broadcast(c)), V::broadcast(9.0f)), V::broadcast(-9.0f));
  const typename V::F e = V::exp(V::add(x, x));
  const typename V::F one = V::broadcast(1.0f);
  return V::mul(V::broadcast(c), V::div(V::sub(e, one), V::add(e, one)));
}

// scores[h] = soft_cap(scale q_h . k_j) for the step's `count` positions,
// -inf past them.
template <class V, int kHeads>
inline void score_step(const float* q, const uint16_t* keys, int64_t key_stride, int64_t count,
                       int64_t head_dim, ScoreScale scale, typename V::F (&scores)[kHeads]) {
  for (int h = 0; h < kHeads; ++h) scores[h] = V::broadcast(0.0f);
  for (int64_t d = 0; d < head_dim; ++d) {
    const typename V::F k = load_f16_lanes<V>(keys + d * key_stride, count);
    for (int h = 0; h < kHeads; ++h) {
      scores[h] = V::fmadd(V::broadcast(q[h * head_dim + d]), k, scores[h]);
    }
  }
  const typename V::F bias = past_run_bias<V>(count);
  for (int h = 0; h < kHeads; ++h) {
    scores[h] =
        V::add(soft_cap<V>(V::mul(scores[h], V::broadcast(scale.scale)), scale.softcap), bias);
  }
}

// Turns each head's scores into weights e^(s - m'), updating its running
// max and denominator; rescale[h] = e^(m - m').
template <class V, int kHeads>
inline void update_softmax(const typename V::F (&scores)[kHeads], int64_t count,
                           AttentionState* states, float (*weights)[kMaxAttentionLanes],
                           float* rescale) {
  for (int h = 0; h < kHeads; ++h) {
    const float new_max = std::max(states[h].max_score, V::reduce_max(scores[h]));
    rescale[h] = std::exp(states[h].max_score - new_max);
    const typename V::F w = V::first(V::exp(V::sub(scores[h], V::broadcast(new_max))), count);
    V::store(weights[h], w);
    states[h].denominator = states[h].denominator * rescale[h] + V::reduce_add(w);
    states[h].max_score = new_max;
  }
}

// outputs[h] = outputs[h] rescale[h] + sum_j weights[h][j] v_j, kLanes
// dimensions at a time; each converted slice of v serves every head.
template <class V, int kHeads>
inline void accumulate_values(const uint16_t* values, int64_t count, int64_t head_dim,
                              const float (*weights)[kMaxAttentionLanes], const float* rescale,
                              float* outputs) {
  for (int64_t d = 0; d < head_dim; d += V::kLanes) {
    const int64_t width = std::min<int64_t>(V::kLanes, head_dim - d);
    typename V::F acc[kHeads];
    for (int h = 0; h < kHeads; ++h) {
      acc[h] = V::mul(load_lanes<V>(outputs + h * head_dim + d, width), V::broadcast(rescale[h]));
    }
    for (int64_t j = 0; j < count; ++j) {
      const typename V::F v = load_f16_lanes<V>(values + j * head_dim + d, width);
      for (int h = 0; h < kHeads; ++h) acc[h] = V::fmadd(V::broadcast(weights[h][j]), v, acc[h]);
    }
    for (int h = 0; h < kHeads; ++h) store_lanes<V>(outputs + h * head_dim + d, acc[h], width);
  }
}

template <class V, int kHeads>
void accumulate_heads(const float* q, const uint16_t* keys, int64_t key_stride,
                      const uint16_t* values, int64_t n, int64_t head_dim, ScoreScale scale,
                      AttentionState* states, float* outputs) {
  static_assert(V::kLanes <= kMaxAttentionLanes);
  typename V::F scores[kHeads];
  alignas(64) float weights[kHeads][kMaxAttentionLanes];
  float rescale[kHeads];
  for (int64_t start = 0; start < n; start += V::kLanes) {
    const int64_t count = std::min<int64_t>(V::kLanes, n - start);
    score_step<V, kHeads>(q, keys + start, key_stride, count, head_dim, scale, scores);
    update_softmax<V, kHeads>(scores, count, states, weights, rescale);
    accumulate_values<V, kHeads>(values + start * head_dim, count, head_dim, weights, rescale,
                                 outputs);
  }
}

template <class V>
void attention_accumulate_lanes(const float* q, int64_t n_q, const uint16_t* keys,
                                int64_t key_stride, const uint16_t* values, int64_t n,
                                int64_t head_dim, ScoreScale scale, AttentionState* states,
                                float* outputs) {
  using HeadsFn = void (*)(const float*, const uint16_t*, int64_t, const uint16_t*, int64_t,
                           int64_t, ScoreScale, AttentionState*, float*);
  static constexpr HeadsFn kByHeadCount[kMaxAttentionHeads + 1] = {
      nullptr,
      &accumulate_heads<V, 1>,
      &accumulate_heads<V, 2>,
      &accumulate_heads<V, 3>,
      &accumulate_heads<V, 4>,
      &accumulate_heads<V, 5>,
      &accumulate_heads<V, 6>,
      &accumulate_heads<V, 7>,
      &accumulate_heads<V, 8>,
  };
  for (int64_t h = 0; h < n_q; h += kMaxAttentionHeads) {
    const int64_t heads = std::min<int64_t>(kMaxAttentionHeads, n_q - h);
    kByHeadCount[heads](q + h * head_dim, keys, key_stride, values, n, head_dim, scale, states + h,
                        outputs + h * head_dim);
  }
}

}  // namespace
}  // namespace ingot::kernels
