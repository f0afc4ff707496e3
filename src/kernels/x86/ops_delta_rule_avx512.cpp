// GCC 12 reports the masked forms inside the AVX-512 max, min and round
// intrinsics (_mm512_undefined_ps) as maybe-uninitialized: a false positive.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

#include "kernels/x86/ops_delta_rule_avx512.h"

#include <immintrin.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "kernels/shapes/ops_delta_rule_shape.h"
#include "kernels/x86/ops_vector_math_avx512.h"

namespace ingot::kernels::avx512 {

namespace {

using Rows = LaneRows<Floats>;

// What a chunk keeps between its passes.
struct ChunkScratch {
  std::vector<float> decays;  // [t][s]: e^(G_t - G_s) for s <= t
  std::vector<float> starts;  // [t]: e^G_t
  std::vector<float> deltas;  // [t][n]: S0^T k_t, then d_t
  std::vector<float> reads;   // [t][n]: S0^T q_t
  std::vector<float> keys;    // [s][n]: e^(G_c - G_s) k_s

  void resize(int64_t c, int64_t n) {
    decays.resize(c * c);
    starts.resize(c);
    deltas.resize(c * n);
    reads.resize(c * n);
    keys.resize(c * n);
  }
};

void fill_decays(const DeltaRuleRun& run, float* decays, float* starts) {
  const int64_t c = run.tokens;
  float G[kDeltaRuleChunk];
  for (int64_t t = 0; t < c; ++t) G[t] = (t ? G[t - 1] : 0.0f) + run.log_decay[t * run.gate_stride];
  for (int64_t t = 0; t < c; ++t) {
    for (int64_t s = 0; s <= t; s += 16) {
      const __mmask16 m = lanes(t + 1 - s);
      const __m512 gap = _mm512_sub_ps(_mm512_set1_ps(G[t]), _mm512_maskz_loadu_ps(m, G + s));
      _mm512_mask_storeu_ps(decays + t * c + s, m, exp_ps(gap));
    }
    starts[t] = std::exp(G[t]);
  }
}

// S0^T k_t and S0^T q_t for `tile` tokens from t0, lanes j..j+15: each
// row of S0 loaded once feeds two FMAs per token of the tile.
template <int tile>
void recall_tile(const float* state, const DeltaRuleRun& run, int64_t n, int64_t j, int64_t t0,
                 float* deltas, float* reads) {
  const __mmask16 m = lanes(n - j);
  __m512 by_k[tile], by_q[tile];
  for (int tt = 0; tt < tile; ++tt) by_k[tt] = by_q[tt] = _mm512_setzero_ps();
  const float* k = run.k + t0 * run.qkv_stride;
  const float* q = run.q + t0 * run.qkv_stride;
  for (int64_t i = 0; i < n; ++i) {
    const __m512 row = _mm512_maskz_loadu_ps(m, state + i * n + j);
    for (int tt = 0; tt < tile; ++tt) {
      by_k[tt] = _mm512_fmadd_ps(_mm512_set1_ps(k[tt * run.qkv_stride + i]), row, by_k[tt]);
      by_q[tt] = _mm512_fmadd_ps(_mm512_set1_ps(q[tt * run.qkv_stride + i]), row, by_q[tt]);
    }
  }
  for (int tt = 0; tt < tile; ++tt) {
    _mm512_mask_storeu_ps(deltas + (t0 + tt) * n + j, m, by_k[tt]);
    _mm512_mask_storeu_ps(reads + (t0 + tt) * n + j, m, by_q[tt]);
  }
}

// Lane block by lane block, so that a block's column of S0 stays in L1
// across the tiles of tokens.
void recall(const float* state, const DeltaRuleRun& run, int64_t n, float* deltas, float* reads) {
  for (int64_t j = 0; j < n; j += 16) {
    int64_t t = 0;
    for (; t + 8 <= run.tokens; t += 8) recall_tile<8>(state, run, n, j, t, deltas, reads);
    for (; t + 2 <= run.tokens; t += 2) recall_tile<2>(state, run, n, j, t, deltas, reads);
    for (; t < run.tokens; ++t) recall_tile<1>(state, run, n, j, t, deltas, reads);
  }
}

// d_t = beta_t (v_t - e^G_t S0^T k_t - sum_{s<t} e^(G_t - G_s) (k_t.k_s) d_s), in order.
void solve_deltas(const DeltaRuleRun& run, int64_t n, const float* decays, const float* starts,
                  float* deltas) {
  const int64_t c = run.tokens;
  for (int64_t t = 0; t < c; ++t) {
    const __m512 beta = _mm512_set1_ps(run.beta[t * run.gate_stride]);
    const __m512 decay = _mm512_set1_ps(starts[t]);
    float* d = deltas + t * n;
    const float* v = run.v + t * run.qkv_stride;
    for (int64_t j = 0; j < n; j += 16) {
      const __mmask16 m = lanes(n - j);
      const __m512 recalled = _mm512_maskz_loadu_ps(m, d + j);
      _mm512_mask_storeu_ps(
          d + j, m,
          _mm512_mul_ps(beta, _mm512_fnmadd_ps(decay, recalled, _mm512_maskz_loadu_ps(m, v + j))));
    }
    const float* k_t = run.k + t * run.qkv_stride;
    for (int64_t s = 0; s < t; ++s) {
      const float a = run.beta[t * run.gate_stride] * decays[t * c + s] *
                      Rows::dot(k_t, run.k + s * run.qkv_stride, n);
      Rows::add_scaled(d, -a, deltas + s * n, n);
    }
  }
}

// o_t = (e^G_t S0^T q_t + sum_{s<=t} e^(G_t - G_s) (q_t.k_s) d_s) / sqrt(n).
void write_outputs(const DeltaRuleRun& run, int64_t n, const float* decays, const float* starts,
                   const float* deltas, const float* reads) {
  const int64_t c = run.tokens;
  const float scale = 1.0f / std::sqrt(float(n));
  for (int64_t t = 0; t < c; ++t) {
    float* o = run.out + t * run.out_stride;
    const __m512 decay = _mm512_set1_ps(starts[t] * scale);
    for (int64_t j = 0; j < n; j += 16) {
      const __mmask16 m = lanes(n - j);
      _mm512_mask_storeu_ps(o + j, m,
                            _mm512_mul_ps(decay, _mm512_maskz_loadu_ps(m, reads + t * n + j)));
    }
    const float* q_t = run.q + t * run.qkv_stride;
    for (int64_t s = 0; s <= t; ++s) {
      const float a = scale * decays[t * c + s] * Rows::dot(q_t, run.k + s * run.qkv_stride, n);
      Rows::add_scaled(o, a, deltas + s * n, n);
    }
  }
}

// S_c = e^G_c S0 + sum_s e^(G_c - G_s) k_s d_s^T, four rows at a time so
// that each delta loaded feeds four FMAs.
void update_state(float* state, const DeltaRuleRun& run, int64_t n, const float* decays,
                  const float* starts, const float* deltas, float* keys) {
  const int64_t c = run.tokens;
  const float* last = decays + (c - 1) * c;
  for (int64_t s = 0; s < c; ++s) {
    const float* k = run.k + s * run.qkv_stride;
    for (int64_t i = 0; i < n; ++i) keys[s * n + i] = last[s] * k[i];
  }
  const __m512 decay = _mm512_set1_ps(starts[c - 1]);
  for (int64_t j = 0; j < n; j += 16) {
    const __mmask16 m = lanes(n - j);
    int64_t i = 0;
    for (; i + 4 <= n; i += 4) {
      __m512 rows[4];
      for (int r = 0; r < 4; ++r) {
        rows[r] = _mm512_mul_ps(decay, _mm512_maskz_loadu_ps(m, state + (i + r) * n + j));
      }
      for (int64_t s = 0; s < c; ++s) {
        const __m512 d = _mm512_maskz_loadu_ps(m, deltas + s * n + j);
        for (int r = 0; r < 4; ++r) {
          rows[r] = _mm512_fmadd_ps(_mm512_set1_ps(keys[s * n + i + r]), d, rows[r]);
        }
      }
      for (int r = 0; r < 4; ++r) _mm512_mask_storeu_ps(state + (i + r) * n + j, m, rows[r]);
    }
    for (; i < n; ++i) {
      __m512 row = _mm512_mul_ps(decay, _mm512_maskz_loadu_ps(m, state + i * n + j));
      for (int64_t s = 0; s < c; ++s) {
        row = _mm512_fmadd_ps(_mm512_set1_ps(keys[s * n + i]),
                              _mm512_maskz_loadu_ps(m, deltas + s * n + j), row);
      }
      _mm512_mask_storeu_ps(state + i * n + j, m, row);
    }
  }
}

}  // namespace

void delta_rule_chunk(float* state, const DeltaRuleRun& run, int64_t n) {
  thread_local ChunkScratch scratch;
  scratch.resize(run.tokens, n);
  const float* decays = scratch.decays.data();
  const float* starts = scratch.starts.data();
  fill_decays(run, scratch.decays.data(), scratch.starts.data());
  recall(state, run, n, scratch.deltas.data(), scratch.reads.data());
  solve_deltas(run, n, decays, starts, scratch.deltas.data());
  write_outputs(run, n, decays, starts, scratch.deltas.data(), scratch.reads.data());
  update_state(state, run, n, decays, starts, scratch.deltas.data(), scratch.keys.data());
}

}  // namespace ingot::kernels::avx512
