#include "model/linear_attention.h"

#include <algorithm>
#include <cmath>

#include "kernels/ops_activation.h"
#include "kernels/ops_delta_rule.h"
#include "kernels/ops_norm.h"
#include "model/row_math.h"

namespace ingot::model {
namespace {

float sigmoid(float x) {
  return 1.0f / (1.0f + std::exp(-x));
}

// As llama.cpp computes it: linear past 20, where exp would overflow.
float softplus(float x) {
  return x > 20.0f ? x : std::log(1.0f + std::exp(x));
}

// x / sqrt(sum x^2 + eps), llama.cpp's L2 norm of the delta rule's q and k.
void l2_normalize(float* x, int64_t n, float eps) {
  float sum = 0.0f;
  for (int64_t i = 0; i < n; ++i) sum += x[i] * x[i];
  const float scale = 1.0f / std::sqrt(sum + eps);
  for (int64_t i = 0; i < n; ++i) x[i] *= scale;
}

}  // namespace

void LinearAttention::run(const LayerWeights& w, int64_t index, const Batch& batch,
                          PackedInput& input, RecurrentStates& states,
                          const std::vector<float*>& checkpoints, float* out, ThreadPool& pool) {
  const LinearAttentionConfig& l = config_.linear;
  const int64_t n_tokens = batch.size();
  resize(n_tokens);
  const int64_t per_layer = l.conv_state_floats() + l.delta_state_floats();
  for (int64_t t = 0; t < n_tokens; ++t) {
    const SequenceId sequence = batch.entries()[t].sequence;
    windows_[t] = states.conv(sequence, index);
    states_[t] = states.delta(sequence, index);
    float* checkpoint = checkpoints.empty() ? nullptr : checkpoints[t];
    window_copies_[t] = checkpoint ? checkpoint + index * per_layer : nullptr;
    state_copies_[t] =
        checkpoint ? checkpoint + index * per_layer + l.conv_state_floats() : nullptr;
  }
  const kernels::MatmulProduct products[] = {
      input.product(w.wqkv, mixed_.data(), l.conv_channels(), pool),
      input.product(w.wz, z_.data(), l.value_dim(), pool),
      input.product(w.w_beta, beta_.data(), l.value_heads, pool),
      input.product(w.w_alpha, decay_.data(), l.value_heads, pool)};
  kernels::matmul_all(products, pool);
  convolve(w, n_tokens, pool);
  prepare_heads(w, n_tokens);
  apply_delta_rule(n_tokens, pool);
  gate_output(w, n_tokens);
  packed_heads_.reset(heads_.data(), n_tokens, l.value_dim());
  kernels::matmul(w.w_linear_out, packed_heads_.for_weight(w.w_linear_out, pool), out,
                  config_.n_embd, pool);
}

void LinearAttention::resize(int64_t n_tokens) {
  const LinearAttentionConfig& l = config_.linear;
  grow(windows_, n_tokens);
  grow(states_, n_tokens);
  grow(window_copies_, n_tokens);
  grow(state_copies_, n_tokens);
  grow(mixed_, n_tokens * l.conv_channels());
  grow(z_, n_tokens * l.value_dim());
  grow(beta_, n_tokens * l.value_heads);
  grow(decay_, n_tokens * l.value_heads);
  grow(heads_, n_tokens * l.value_dim());
}

// Channels split across the pool; within a channel range the entries go in
// batch order, which is each sequence's position order.
void LinearAttention::convolve(const LayerWeights& w, int64_t n_tokens, ThreadPool& pool) {
  const LinearAttentionConfig& l = config_.linear;
  const int64_t channels = l.conv_channels(), kernel = l.conv_kernel;
  const int64_t grain = std::max<int64_t>(64, channels / (4 * pool.size()));
  pool.parallel_for(channels, grain, [&](int64_t begin, int64_t end) {
    for (int64_t t = 0; t < n_tokens; ++t) {
      float* row = mixed_.data() + t * channels + begin;
      float* window = windows_[t] + begin * (kernel - 1);
      kernels::causal_conv_step(window, row, w.conv_taps.data() + begin * kernel, end - begin,
                                kernel, row);
      kernels::silu(row, row, end - begin);
      if (window_copies_[t] != nullptr) {
        std::copy_n(window, (end - begin) * (kernel - 1), window_copies_[t] + begin * (kernel - 1));
      }
    }
  });
}

void LinearAttention::prepare_heads(const LayerWeights& w, int64_t n_tokens) {
  const LinearAttentionConfig& l = config_.linear;
  for (int64_t t = 0; t < n_tokens; ++t) {
    float* row = mixed_.data() + t * l.conv_channels();
    for (int64_t h = 0; h < 2 * l.key_heads; ++h) {  // the q heads, then the k heads
      l2_normalize(row + h * l.state_size, l.state_size, config_.rms_eps);
    }
    for (int64_t h = 0; h < l.value_heads; ++h) {
      float& beta = beta_[t * l.value_heads + h];
      beta = sigmoid(beta);
      float& decay = decay_[t * l.value_heads + h];
      decay = softplus(decay + w.decay_bias[h]) * w.decay_rate[h];
    }
  }
}

// One task per value head: each walks the batch in runs of one sequence's
// tokens, which the delta rule takes chunkwise, in order.
void LinearAttention::apply_delta_rule(int64_t n_tokens, ThreadPool& pool) {
  const LinearAttentionConfig& l = config_.linear;
  const int64_t n = l.state_size, channels = l.conv_channels();
  pool.parallel_for(l.value_heads, 1, [&](int64_t begin, int64_t end) {
    for (int64_t h = begin; h < end; ++h) {
      const int64_t key_head = h % l.key_heads;
      for (int64_t first = 0; first < n_tokens;) {
        const int64_t last = run_end(first, n_tokens);
        const float* row = mixed_.data() + first * channels;
        const kernels::DeltaRuleRun run{.q = row + key_head * n,
                                        .k = row + l.key_dim() + key_head * n,
                                        .v = row + 2 * l.key_dim() + h * n,
                                        .qkv_stride = channels,
                                        .log_decay = decay_.data() + first * l.value_heads + h,
                                        .beta = beta_.data() + first * l.value_heads + h,
                                        .gate_stride = l.value_heads,
                                        .out = heads_.data() + first * l.value_dim() + h * n,
                                        .out_stride = l.value_dim(),
                                        .tokens = last - first};
        float* state = states_[first] + h * n * n;
        kernels::delta_rule_run(state, run, n);
        if (state_copies_[last - 1] != nullptr) {
          std::copy_n(state, n * n, state_copies_[last - 1] + h * n * n);
        }
        first = last;
      }
    }
  });
}

// A run goes on while the entries are the same sequence's and no entry
// before the next one wants its state kept (a checkpoint ends the run).
int64_t LinearAttention::run_end(int64_t first, int64_t n_tokens) const {
  int64_t last = first + 1;
  while (last < n_tokens && states_[last] == states_[first] && state_copies_[last - 1] == nullptr) {
    ++last;
  }
  return last;
}

void LinearAttention::gate_output(const LayerWeights& w, int64_t n_tokens) {
  const LinearAttentionConfig& l = config_.linear;
  kernels::rms_norm(heads_.data(), w.linear_norm.data(), heads_.data(), n_tokens * l.value_heads,
                    l.state_size, config_.rms_eps);
  for (int64_t t = 0; t < n_tokens; ++t) {
    float* z = z_.data() + t * l.value_dim();
    kernels::silu(z, z, l.value_dim());
    float* o = heads_.data() + t * l.value_dim();
    for (int64_t i = 0; i < l.value_dim(); ++i) o[i] *= z[i];
  }
}

}  // namespace ingot::model
