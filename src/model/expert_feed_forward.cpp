#include "model/expert_feed_forward.h"

#include <algorithm>
#include <cmath>

#include "kernels/matmul.h"
#include "kernels/ops_activation.h"

namespace ingot::model {
namespace {

template <typename T>
void grow(std::vector<T>& buffer, int64_t size) {
  if (int64_t(buffer.size()) < size) buffer.resize(size);
}

void softmax_in_place(float* x, int64_t n) {
  const float top = *std::max_element(x, x + n);
  float sum = 0.0f;
  for (int64_t i = 0; i < n; ++i) sum += x[i] = std::exp(x[i] - top);
  for (int64_t i = 0; i < n; ++i) x[i] /= sum;
}

// llama.cpp clamps the chosen weights' sum to F16's smallest normal.
constexpr float kMinWeightSum = 6.103515625e-5f;

}  // namespace

void ExpertFeedForward::run(const LayerWeights& w, const float* x, int64_t n_rows,
                            PackedInput& packed_x, float* out, ThreadPool& pool) {
  std::fill(out, out + n_rows * config_.n_embd, 0.0f);
  if (n_rows == 0) return;
  route(w, n_rows, packed_x, pool);
  group_by_expert(n_rows);
  for (int64_t e = 0; e < config_.experts.count; ++e) {
    if (expert_begin_[e + 1] > expert_begin_[e]) run_expert(w, e, x, out, pool);
  }
}

void ExpertFeedForward::route(const LayerWeights& w, int64_t n_rows, PackedInput& packed_x,
                              ThreadPool& pool) {
  const int64_t count = config_.experts.count, used = config_.experts.used;
  grow(router_, n_rows * count);
  grow(chosen_, n_rows * used);
  grow(chosen_weight_, n_rows * used);
  kernels::matmul(w.router, packed_x.for_weight(w.router, pool), router_.data(), count, pool);
  grow(order_, count);
  std::vector<int32_t>& order = order_;
  for (int64_t t = 0; t < n_rows; ++t) {
    float* p = router_.data() + t * count;
    softmax_in_place(p, count);
    for (int32_t i = 0; i < count; ++i) order[i] = i;
    std::partial_sort(order.begin(), order.begin() + used, order.begin() + count,
                      [p](int32_t a, int32_t b) { return p[a] > p[b] || (p[a] == p[b] && a < b); });
    float sum = 0.0f;
    for (int64_t k = 0; k < used; ++k) sum += p[order[k]];
    sum = std::max(sum, kMinWeightSum);
    for (int64_t k = 0; k < used; ++k) {
      chosen_[t * used + k] = order[k];
      chosen_weight_[t * used + k] = p[order[k]] / sum;
    }
  }
}

// A counting sort of the (row, expert) choices by expert, rows ascending
// within each expert.
void ExpertFeedForward::group_by_expert(int64_t n_rows) {
  const int64_t count = config_.experts.count, used = config_.experts.used;
  expert_begin_.assign(count + 1, 0);
  for (int64_t i = 0; i < n_rows * used; ++i) ++expert_begin_[chosen_[i] + 1];
  for (int64_t e = 0; e < count; ++e) expert_begin_[e + 1] += expert_begin_[e];
  grow(expert_rows_, n_rows * used);
  grow(expert_weights_, n_rows * used);
  next_.assign(expert_begin_.begin(), expert_begin_.end() - 1);
  std::vector<int64_t>& next = next_;
  for (int64_t t = 0; t < n_rows; ++t) {
    for (int64_t k = 0; k < used; ++k) {
      const int64_t slot = next[chosen_[t * used + k]]++;
      expert_rows_[slot] = int32_t(t);
      expert_weights_[slot] = chosen_weight_[t * used + k];
    }
  }
}

void ExpertFeedForward::run_expert(const LayerWeights& w, int64_t expert, const float* x,
                                   float* out, ThreadPool& pool) {
  const int64_t n_embd = config_.n_embd, ff = config_.experts.feed_forward;
  const int64_t begin = expert_begin_[expert], n = expert_begin_[expert + 1] - begin;
  grow(gathered_, n * n_embd);
  grow(gate_, n * ff);
  grow(up_, n * ff);
  grow(down_, n * n_embd);
  for (int64_t i = 0; i < n; ++i) {
    std::copy_n(x + expert_rows_[begin + i] * n_embd, n_embd, gathered_.data() + i * n_embd);
  }
  packed_gathered_.reset(gathered_.data(), n, n_embd);
  const kernels::MatmulProduct products[] = {
      packed_gathered_.product(w.expert_gate[expert], gate_.data(), ff, pool),
      packed_gathered_.product(w.expert_up[expert], up_.data(), ff, pool)};
  kernels::matmul_all(products, pool);
  if (config_.traits.gemma) {
    kernels::gelu(gate_.data(), gate_.data(), n * ff);
    for (int64_t i = 0; i < n * ff; ++i) gate_[i] *= up_[i];
  } else {
    kernels::swiglu(gate_.data(), up_.data(), gate_.data(), n * ff);
  }
  packed_hidden_.pack(gate_.data(), n, ff, w.expert_down[expert].type, pool);
  kernels::matmul(w.expert_down[expert], packed_hidden_, down_.data(), n_embd, pool);
  for (int64_t i = 0; i < n; ++i) {
    float* row = out + expert_rows_[begin + i] * n_embd;
    const float weight = expert_weights_[begin + i] *
                         (w.expert_output_scale.empty() ? 1.0f : w.expert_output_scale[expert]);
    const float* y = down_.data() + i * n_embd;
    for (int64_t d = 0; d < n_embd; ++d) row[d] += weight * y[d];
  }
}

}  // namespace ingot::model
