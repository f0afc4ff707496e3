#include "model/expert_feed_forward.h"

#include <algorithm>
#include <cmath>

#include "kernels/matmul.h"
#include "kernels/ops_activation.h"
#include "model/row_math.h"

namespace ingot::model {
namespace {

void softmax_in_place(float* x, int64_t n) {
  const float top = *std::max_element(x, x + n);
  float sum = 0.0f;
  for (int64_t i = 0; i < n; ++i) sum += x[i] = std::exp(x[i] - top);
  for (int64_t i = 0; i < n; ++i) x[i] /= sum;
}

// llama.cpp clamps the chosen weights' sum to F16's smallest normal.
constexpr float kMinWeightSum = 6.103515625e-5f;

// gpt-oss's activation, as llama.cpp fixes it for the architecture.
constexpr float kClampedSwiGLUAlpha = 1.702f;
constexpr float kClampedSwiGLULimit = 7.0f;

}  // namespace

void ExpertFeedForward::run(const LayerWeights& w, const float* x, int64_t n_rows,
                            PackedInput& packed_x, float* out, ThreadPool& pool) {
  if (n_rows == 0) return;
  route(w, n_rows, packed_x, pool);
  group_by_expert(n_rows);
  project_gate_up(w, x, n_rows, pool);
  activate_and_pack(w, pool);
  project_down(w, pool);
  add_weighted(w, n_rows, out, pool);
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
  const bool softmax_first = config_.experts.gating == ExpertGating::kSoftmaxThenTopK;
  for (int64_t t = 0; t < n_rows; ++t) {
    float* p = router_.data() + t * count;
    if (!w.router_bias.empty()) {
      for (int64_t i = 0; i < count; ++i) p[i] += w.router_bias[i];
    }
    if (softmax_first) softmax_in_place(p, count);
    for (int32_t i = 0; i < count; ++i) order[i] = i;
    std::partial_sort(order.begin(), order.begin() + used, order.begin() + count,
                      [p](int32_t a, int32_t b) { return p[a] > p[b] || (p[a] == p[b] && a < b); });
    float* weights = chosen_weight_.data() + t * used;
    for (int64_t k = 0; k < used; ++k) {
      chosen_[t * used + k] = order[k];
      weights[k] = p[order[k]];
    }
    if (softmax_first) {
      float sum = 0.0f;
      for (int64_t k = 0; k < used; ++k) sum += weights[k];
      sum = std::max(sum, kMinWeightSum);
      for (int64_t k = 0; k < used; ++k) weights[k] /= sum;
    } else {
      softmax_in_place(weights, used);
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
  grow(pair_expert_, n_rows * used);
  grow(pair_of_choice_, n_rows * used);
  next_.assign(expert_begin_.begin(), expert_begin_.end() - 1);
  for (int64_t t = 0; t < n_rows; ++t) {
    for (int64_t k = 0; k < used; ++k) {
      const int32_t expert = chosen_[t * used + k];
      const int64_t pair = next_[expert]++;
      expert_rows_[pair] = int32_t(t);
      pair_expert_[pair] = expert;
      pair_of_choice_[t * used + k] = pair;
    }
  }
  active_.clear();
  for (int32_t e = 0; e < count; ++e) {
    if (expert_begin_[e + 1] > expert_begin_[e]) active_.push_back(e);
  }
}

// An expert every row chose reads x as it is (a decode step's one row, for
// every expert); the others read their rows gathered.
void ExpertFeedForward::project_gate_up(const LayerWeights& w, const float* x, int64_t n_rows,
                                        ThreadPool& pool) {
  const int64_t n_embd = config_.n_embd, ff = config_.experts.feed_forward;
  const int64_t pairs = n_rows * config_.experts.used;
  grow(gathered_, pairs * n_embd);
  grow(gate_, pairs * ff);
  grow(up_, pairs * ff);
  if (int64_t(inputs_.size()) < config_.experts.count) inputs_.resize(config_.experts.count);
  whole_input_.reset(x, n_rows, n_embd);
  products_.clear();
  for (int32_t e : active_) {
    const int64_t begin = expert_begin_[e], n = expert_begin_[e + 1] - begin;
    PackedInput* input = &whole_input_;
    if (n != n_rows) {
      float* rows = gathered_.data() + begin * n_embd;
      for (int64_t i = 0; i < n; ++i) {
        std::copy_n(x + expert_rows_[begin + i] * n_embd, n_embd, rows + i * n_embd);
      }
      inputs_[e].reset(rows, n, n_embd);
      input = &inputs_[e];
    }
    products_.push_back(input->product(w.expert_gate[e], gate_.data() + begin * ff, ff, pool));
    products_.push_back(input->product(w.expert_up[e], up_.data() + begin * ff, ff, pool));
  }
  kernels::matmul_all(products_, pool);
}

// hidden = act(gate) * up, packed for the down projection piece by piece
// as it is computed, every pair's pieces spread over the pool.
void ExpertFeedForward::activate_and_pack(const LayerWeights& w, ThreadPool& pool) {
  const int64_t ff = config_.experts.feed_forward;
  if (int64_t(hidden_.size()) < config_.experts.count) hidden_.resize(config_.experts.count);
  for (int32_t e : active_) {
    hidden_[e].prepare(expert_begin_[e + 1] - expert_begin_[e], ff, w.expert_down[e].type);
  }
  const int64_t pieces = hidden_[active_.front()].pieces_per_row();
  const int64_t pairs = expert_begin_.back();
  pool.parallel_for(pairs * pieces, 1, [&](int64_t begin, int64_t end) {
    for (int64_t job = begin; job < end; ++job) {
      const int64_t pair = job / pieces, piece = job % pieces;
      const int64_t first = piece * kernels::PackedActivations::kPieceCols;
      const int64_t n = std::min(kernels::PackedActivations::kPieceCols, ff - first);
      const int32_t expert = pair_expert_[pair];
      float* hidden = gate_.data() + pair * ff;
      float* up = up_.data() + pair * ff;
      if (!w.expert_gate_bias.empty()) {
        const float* gate_bias = w.expert_gate_bias.data() + expert * ff;
        const float* up_bias = w.expert_up_bias.data() + expert * ff;
        for (int64_t i = first; i < first + n; ++i) {
          hidden[i] += gate_bias[i];
          up[i] += up_bias[i];
        }
      }
      activate(hidden + first, up + first, n);
      hidden_[expert].pack_piece(hidden, pair - expert_begin_[expert], piece);
    }
  });
}

// hidden <- act(hidden) * up, in place.
void ExpertFeedForward::activate(float* hidden, const float* up, int64_t n) const {
  switch (config_.experts.activation) {
    case ExpertActivation::kSiLU:
      kernels::swiglu(hidden, up, hidden, n);
      return;
    case ExpertActivation::kGELU:
      kernels::gelu(hidden, hidden, n);
      for (int64_t i = 0; i < n; ++i) hidden[i] *= up[i];
      return;
    case ExpertActivation::kClampedSwiGLU:
      kernels::swiglu_clamped(hidden, up, hidden, n, kClampedSwiGLUAlpha, kClampedSwiGLULimit);
      return;
  }
}

void ExpertFeedForward::project_down(const LayerWeights& w, ThreadPool& pool) {
  const int64_t n_embd = config_.n_embd;
  grow(down_, expert_begin_.back() * n_embd);
  products_.clear();
  for (int32_t e : active_) {
    products_.push_back(
        {&w.expert_down[e], &hidden_[e], down_.data() + expert_begin_[e] * n_embd, n_embd});
  }
  kernels::matmul_all(products_, pool);
}

// Each row sums its experts' outputs in the order they were chosen, best
// first, as llama.cpp adds them.
void ExpertFeedForward::add_weighted(const LayerWeights& w, int64_t n_rows, float* out,
                                     ThreadPool& pool) {
  const int64_t n_embd = config_.n_embd, used = config_.experts.used;
  pool.parallel_for(n_rows, 1, [&](int64_t begin, int64_t end) {
    for (int64_t t = begin; t < end; ++t) {
      float* row = out + t * n_embd;
      std::fill(row, row + n_embd, 0.0f);
      for (int64_t k = 0; k < used; ++k) {
        const int32_t expert = chosen_[t * used + k];
        const float scale = w.expert_output_scale.empty() ? 1.0f : w.expert_output_scale[expert];
        const float weight = chosen_weight_[t * used + k] * scale;
        const float* y = down_.data() + pair_of_choice_[t * used + k] * n_embd;
        if (w.expert_down_bias.empty()) {
          for (int64_t d = 0; d < n_embd; ++d) row[d] += weight * y[d];
        } else {
          const float* bias = w.expert_down_bias.data() + expert * n_embd;
          for (int64_t d = 0; d < n_embd; ++d) row[d] += weight * (y[d] + bias[d]);
        }
      }
    }
  });
}

}  // namespace ingot::model
