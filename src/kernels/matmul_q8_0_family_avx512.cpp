// AVX-512 VNNI kernels for the weight types whose dot product runs against
// Q8_0 activations: Q4_0, Q5_0 and Q8_0. Each step takes two 32-element
// blocks as one 64-byte vector. vpdpbusd multiplies unsigned weight bytes
// by signed activation bytes, so weights enter as q + offset (Q4_0's and
// Q5_0's stored values already are; Q8_0 flips the sign bit to add 128) and
// offset * (block sum of the activations) is subtracted by seeding the
// accumulator with it. Integer sums per block are then scaled by
// d_w * d_x in float, as the scalar reference does.
// GCC 12 flags the deliberately undefined lanes inside its own AVX-512
// intrinsics (cvtph_ps, reduce_add) as uninitialized.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#include <immintrin.h>

#include <cstring>

#include "kernels/block_formats.h"
#include "kernels/matmul_kernels_avx512.h"
#include "kernels/simd_avx512.h"
#include "kernels/tile_loop.h"

namespace ingot::kernels {
namespace {

// Two Q4_0 blocks' nibbles as bytes in element order: [lo(b0) hi(b0) lo(b1) hi(b1)].
template <bool kPair>
inline __m512i q4_pair(const uint8_t* qs0, const uint8_t* qs1) {
  const __m128i q0 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(qs0));
  const __m128i q1 =
      kPair ? _mm_loadu_si128(reinterpret_cast<const __m128i*>(qs1)) : _mm_setzero_si128();
  const __m256i q = _mm256_set_m128i(q1, q0);
  const __m256i mask = _mm256_set1_epi8(0x0f);
  const __m256i lo = _mm256_and_si256(q, mask);
  const __m256i hi = _mm256_and_si256(_mm256_srli_epi16(q, 4), mask);
  const __m512i order = _mm512_set_epi64(11, 10, 3, 2, 9, 8, 1, 0);
  return _mm512_permutex2var_epi64(_mm512_castsi256_si512(lo), order, _mm512_castsi256_si512(hi));
}

struct Q4_0Weights {
  using Block = BlockQ4_0;
  static constexpr int kOffset = 8;
  template <bool kPair>
  static __m512i load(const Block* b) {
    return q4_pair<kPair>(b[0].qs, kPair ? b[1].qs : nullptr);
  }
};

struct Q5_0Weights {
  using Block = BlockQ5_0;
  static constexpr int kOffset = 16;
  template <bool kPair>
  static __m512i load(const Block* b) {
    uint32_t qh0, qh1 = 0;
    std::memcpy(&qh0, b[0].qh, 4);
    if (kPair) std::memcpy(&qh1, b[1].qh, 4);
    const __mmask64 fifth_bits = qh0 | (static_cast<uint64_t>(qh1) << 32);
    const __m512i low = q4_pair<kPair>(b[0].qs, kPair ? b[1].qs : nullptr);
    return _mm512_or_si512(low, _mm512_maskz_set1_epi8(fifth_bits, 0x10));
  }
};

struct Q8_0Weights {
  using Block = BlockQ8_0;
  static constexpr int kOffset = 128;
  template <bool kPair>
  static __m512i load(const Block* b) {
    const __m512i q = load_32x2<kPair>(b[0].qs, kPair ? b[1].qs : nullptr);
    // Only the lanes of real blocks get the offset: the pad must stay 0.
    const __m512i flip =
        _mm512_maskz_set1_epi8(kPair ? ~0ull : 0xffffffffull, static_cast<char>(0x80));
    return _mm512_xor_si512(q, flip);
  }
};

template <class W>
struct Q8Family {
  static constexpr int kRows = 4;
  static constexpr int kTokens = 4;
  static constexpr int kDecodeRows = 4;

  template <int R, int T, bool kPair>
  static inline void step(const typename W::Block* const* rows, const BlockQ8_0* const* xs,
                          const int16_t* const* sums, int64_t b, __m512 (&acc)[R][T]) {
    __m512i xq[T], seed[T];
    __m512 dx[T];
    for (int t = 0; t < T; ++t) {
      xq[t] = load_32x2<kPair>(xs[t][b].qs, kPair ? xs[t][b + 1].qs : nullptr);
      dx[t] = f16_scale_pair<kPair>(&xs[t][b].d, kPair ? &xs[t][b + 1].d : nullptr);
      seed[t] = int_pair<kPair>(-W::kOffset * sums[t][b], kPair ? -W::kOffset * sums[t][b + 1] : 0);
    }
    for (int r = 0; r < R; ++r) {
      const __m512i wq = W::template load<kPair>(rows[r] + b);
      const __m512 dw = f16_scale_pair<kPair>(&rows[r][b].d, kPair ? &rows[r][b + 1].d : nullptr);
      for (int t = 0; t < T; ++t) {
        const __m512i dot = _mm512_dpbusd_epi32(seed[t], wq, xq[t]);
        acc[r][t] = _mm512_fmadd_ps(_mm512_cvtepi32_ps(dot), _mm512_mul_ps(dw, dx[t]), acc[r][t]);
      }
    }
  }

  template <int R, int T>
  static void run(const WeightMatrix& w, const PackedActivations& x, int64_t r0, int64_t t0,
                  float* y, int64_t y_stride) {
    const typename W::Block* rows[R];
    for (int r = 0; r < R; ++r) {
      rows[r] = reinterpret_cast<const typename W::Block*>(static_cast<const uint8_t*>(w.data) +
                                                           (r0 + r) * w.row_stride);
    }
    const BlockQ8_0* xs[T];
    const int16_t* sums[T];
    for (int t = 0; t < T; ++t) {
      xs[t] = reinterpret_cast<const BlockQ8_0*>(x.row(t0 + t));
      sums[t] = x.block_sums(t0 + t);
    }
    __m512 acc[R][T];
    for (int r = 0; r < R; ++r) {
      for (int t = 0; t < T; ++t) acc[r][t] = _mm512_setzero_ps();
    }
    const int64_t nb = w.cols / kQK;
    int64_t b = 0;
    for (; b + 2 <= nb; b += 2) step<R, T, true>(rows, xs, sums, b, acc);
    if (b < nb) step<R, T, false>(rows, xs, sums, b, acc);
    for (int t = 0; t < T; ++t) {
      for (int r = 0; r < R; ++r) y[(t0 + t) * y_stride + r0 + r] = _mm512_reduce_add_ps(acc[r][t]);
    }
  }
};

}  // namespace

void q4_0_tile_avx512(const WeightMatrix& w, const PackedActivations& x, TileRange range, float* y,
                      int64_t y_stride) {
  run_tile<Q8Family<Q4_0Weights>>(w, x, range, y, y_stride);
}

void q5_0_tile_avx512(const WeightMatrix& w, const PackedActivations& x, TileRange range, float* y,
                      int64_t y_stride) {
  run_tile<Q8Family<Q5_0Weights>>(w, x, range, y, y_stride);
}

void q8_0_tile_avx512(const WeightMatrix& w, const PackedActivations& x, TileRange range, float* y,
                      int64_t y_stride) {
  run_tile<Q8Family<Q8_0Weights>>(w, x, range, y, y_stride);
}

}  // namespace ingot::kernels
