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

#include <cstdint>

namespace ingot::kernels {

inline constexpr int64_t kMaxDeltaRuleSize = 512;

void causal_conv_step(float* window, const float* x, const float* taps, int64_t channels,
                      int64_t kernel, float* y);

void delta_rule_step(float* state, const float* q, const float* k, const float* v, float log_decay,
                     float beta, int64_t n, float* out);

namespace scalar {
void delta_rule_step(float* state, const float* q, const float* k, const float* v, float log_decay,
                     float beta, int64_t n, float* out);
}  // namespace scalar

namespace avx512 {
void delta_rule_step(float* state, const float* q, const float* k, const float* v, float log_decay,
                     float beta, int64_t n, float* out);
}  // namespace avx512

}  // namespace ingot::kernels
