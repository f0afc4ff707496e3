#pragma once
// The two recurrences of a gated delta-rule layer (Qwen3.5's linear
// attention), one token at a time.
//
// Causal convolution: each channel c of the token's input x is mixed with
// the channel's last kernel-1 inputs by the channel's own taps,
//   y_c = sum_i taps[c][i] * window_c[i] + taps[c][kernel-1] * x_c,
// and the window then shifts x_c in. window is [channel][kernel-1].
//
// Gated delta rule, for one value head with a key-by-value state S:
//   S <- exp(g) S;  d = beta (v - S^T k);  S <- S + k d^T;  o = S^T q / sqrt(n)
// S is stored row by row, S[i][j] at i * n + j: every sum runs along a row
// of values, so a vector of value lanes accumulates k_i or q_i times row i
// and nothing needs a horizontal sum. n is at most kMaxDeltaRuleSize.
//
// Chunkwise, for a run of tokens 1..c of one sequence from the state S0:
// with G_t the sum of the log decays up to t, the deltas solve a
// lower-triangular system,
//   d_t = beta_t (v_t - e^G_t S0^T k_t - sum_{s<t} e^(G_t - G_s) (k_t.k_s) d_s),
// the outputs are
//   o_t = (e^G_t S0^T q_t + sum_{s<=t} e^(G_t - G_s) (q_t.k_s) d_s) / sqrt(n),
// and the state after the run is
//   S_c = e^G_c S0 + sum_s e^(G_c - G_s) k_s d_s^T.
// It reads S0 once and writes S_c once per chunk instead of once per token,
// and its passes over S are small matrix products.

#include <cstdint>

namespace ingot::kernels {

inline constexpr int64_t kMaxDeltaRuleSize = 512;

// Chunks of at most this many tokens: the triangular system grows with its
// square, the passes over S shrink with its inverse.
inline constexpr int64_t kDeltaRuleChunk = 64;

// One value head's inputs and outputs for a run of tokens; token t's q, k
// and v at t * qkv_stride past their first, its log decay and beta at
// t * gate_stride, its output at t * out_stride.
struct DeltaRuleRun {
  const float* q;
  const float* k;
  const float* v;
  int64_t qkv_stride;
  const float* log_decay;
  const float* beta;
  int64_t gate_stride;
  float* out;
  int64_t out_stride;
  int64_t tokens;
};

void causal_conv_step(float* window, const float* x, const float* taps, int64_t channels,
                      int64_t kernel, float* y);

void delta_rule_step(float* state, const float* q, const float* k, const float* v, float log_decay,
                     float beta, int64_t n, float* out);

// The run's tokens in order, chunkwise (a single token takes the step).
void delta_rule_run(float* state, const DeltaRuleRun& run, int64_t n);

namespace scalar {
void delta_rule_step(float* state, const float* q, const float* k, const float* v, float log_decay,
                     float beta, int64_t n, float* out);
// One chunk: run.tokens is at most kDeltaRuleChunk.
void delta_rule_chunk(float* state, const DeltaRuleRun& run, int64_t n);
}  // namespace scalar

}  // namespace ingot::kernels
