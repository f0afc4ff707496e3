// AVX-512 VNNI kernels for the 32-element block types: Q4_0, Q5_0, Q8_0,
// IQ4_NL and MXFP4 against Q8_0 activations, Q4_1 and Q5_1 against Q8_1. Each step takes two
// 32-element blocks as one 64-byte vector. vpdpbusd multiplies unsigned weight bytes by signed
// activation bytes, so weights enter as q + offset (Q4_0's and Q5_0's stored values already are;
// Q8_0 flips the sign bit to add 128) and offset * (block sum of the activations) is subtracted by
// seeding the accumulator with it. Integer sums per block are then scaled by d_w * d_x in float, as
// the scalar reference does.
//
// The shuffle port is the bottleneck, so: nibble weights are unpacked as
// [low nibbles of both blocks | high nibbles of both blocks] with one
// shuffle, and the activations (loaded once for several weight rows) are
// permuted to that order instead; F16 scales are read through a table.
//
// GCC 12 flags the deliberately undefined lanes inside its own AVX-512
// intrinsics (reduce_add) as uninitialized.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#include <immintrin.h>

#include <cstring>

#include "kernels/block_formats.h"
#include "kernels/f16_table.h"
#include "kernels/shapes/prefetch.h"
#include "kernels/shapes/tile_loop.h"
#include "kernels/x86/matmul_kernels_avx512.h"

namespace ingot::kernels {
namespace {

// Byte order of a two-block vector: natural is [b0 (32) | b1 (32)];
// nibble order is [b0 0..15 | b1 0..15 | b0 16..31 | b1 16..31].
enum class Order { kNatural, kNibble };

// The 32-bit lanes holding the second block's products.
template <Order kOrder>
constexpr __mmask16 kSecondBlockLanes = kOrder == Order::kNatural ? 0xff00 : 0xf0f0;

// Two 32-byte blocks at a and b (zeros for b without kPair) in kOrder.
template <Order kOrder, bool kPair>
inline __m512i load_pair(const int8_t* a, const int8_t* b) {
  const __m256i lo = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(a));
  const __m256i hi =
      kPair ? _mm256_loadu_si256(reinterpret_cast<const __m256i*>(b)) : _mm256_setzero_si256();
  if constexpr (kOrder == Order::kNatural) {
    return _mm512_inserti64x4(_mm512_castsi256_si512(lo), hi, 1);
  } else {
    const __m512i order = _mm512_set_epi64(11, 10, 3, 2, 9, 8, 1, 0);
    return _mm512_permutex2var_epi64(_mm512_castsi256_si512(lo), order, _mm512_castsi256_si512(hi));
  }
}

// Per-lane scale: f16 a in the first block's lanes, b (or 0) in the second's.
template <Order kOrder, bool kPair>
inline __m512 scale_pair(const float* f16, uint16_t a, uint16_t b) {
  const __m512 va = _mm512_set1_ps(f16[a]);
  if (!kPair) return _mm512_maskz_mov_ps(static_cast<__mmask16>(~kSecondBlockLanes<kOrder>), va);
  return _mm512_mask_blend_ps(kSecondBlockLanes<kOrder>, va, _mm512_set1_ps(f16[b]));
}

// -offset * block sum, in the first lane of each block's lanes.
template <Order kOrder, bool kPair>
inline __m512i seed_pair(int a, int b) {
  const __m512i v = _mm512_zextsi128_si512(_mm_cvtsi32_si128(a));
  constexpr __mmask16 kFirstLaneOfB = kOrder == Order::kNatural ? 0x0100 : 0x0010;
  return kPair ? _mm512_mask_set1_epi32(v, kFirstLaneOfB, b) : v;
}

// Two blocks of 16 nibble bytes as [low nibbles | high nibbles].
template <bool kPair>
inline __m512i nibbles_pair(const uint8_t* qs0, const uint8_t* qs1) {
  const __m128i q0 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(qs0));
  const __m256i q =
      kPair ? _mm256_inserti128_si256(_mm256_castsi128_si256(q0),
                                      _mm_loadu_si128(reinterpret_cast<const __m128i*>(qs1)), 1)
            : _mm256_zextsi128_si256(q0);
  const __m256i mask = _mm256_set1_epi8(0x0f);
  return _mm512_inserti64x4(_mm512_castsi256_si512(_mm256_and_si256(q, mask)),
                            _mm256_and_si256(_mm256_srli_epi16(q, 4), mask), 1);
}

struct Q4_0Weights {
  using Block = BlockQ4_0;
  using XBlock = BlockQ8_0;
  static constexpr bool kHasMin = false;
  static constexpr int kOffset = 8;
  static constexpr Order kOrder = Order::kNibble;
  template <bool kPair>
  static __m512i load(const Block* b) {
    return nibbles_pair<kPair>(b[0].qs, kPair ? b[1].qs : nullptr);
  }
};

struct Q5_0Weights {
  using Block = BlockQ5_0;
  using XBlock = BlockQ8_0;
  static constexpr bool kHasMin = false;
  static constexpr int kOffset = 16;
  static constexpr Order kOrder = Order::kNibble;
  template <bool kPair>
  static __m512i load(const Block* b) {
    uint32_t qh0, qh1 = 0;
    std::memcpy(&qh0, b[0].qh, 4);
    if (kPair) std::memcpy(&qh1, b[1].qh, 4);
    // Fifth bits in nibble order: elements 0..15 of both blocks, then 16..31.
    const __mmask64 fifth_bits = (qh0 & 0xffffu) | ((qh1 & 0xffffu) << 16) |
                                 (static_cast<uint64_t>(qh0 >> 16) << 32) |
                                 (static_cast<uint64_t>(qh1 >> 16) << 48);
    return _mm512_or_si512(nibbles_pair<kPair>(b[0].qs, kPair ? b[1].qs : nullptr),
                           _mm512_maskz_set1_epi8(fifth_bits, 0x10));
  }
};

struct Q8_0Weights {
  using Block = BlockQ8_0;
  using XBlock = BlockQ8_0;
  static constexpr bool kHasMin = false;
  static constexpr int kOffset = 128;
  static constexpr Order kOrder = Order::kNatural;
  template <bool kPair>
  static __m512i load(const Block* b) {
    const __m512i q = load_pair<Order::kNatural, kPair>(b[0].qs, kPair ? b[1].qs : nullptr);
    return _mm512_xor_si512(q, _mm512_set1_epi8(static_cast<char>(0x80)));
  }
};

// The 4-bit table types: a nibble picks one of 16 signed values, looked up
// with one byte shuffle from the table shifted to be unsigned (by kOffset),
// so that they enter vpdpbusd as Q8_0's quants do. The constants are
// kIq4NlValues + 128 and kMxfp4Values + 12, which the compiler folds. The
// offset is the smallest that makes every value unsigned: its term,
// kOffset * sum(x), cancels only after the float scaling, so a larger one
// would cost precision.
inline __m512i iq4_nl_table() {
  return _mm512_broadcast_i32x4(_mm_setr_epi8(1, 24, 45, 63, 79, 93, 106, 118, char(129), char(141),
                                              char(153), char(166), char(181), char(197), char(217),
                                              char(241)));
}

inline __m512i mxfp4_table() {
  return _mm512_broadcast_i32x4(
      _mm_setr_epi8(12, 13, 14, 15, 16, 18, 20, 24, 12, 11, 10, 9, 8, 6, 4, 0));
}

struct IQ4_NLWeights {
  using Block = BlockIQ4_NL;
  using XBlock = BlockQ8_0;
  static constexpr bool kHasMin = false;
  static constexpr int kOffset = 128;
  static constexpr Order kOrder = Order::kNibble;
  template <bool kPair>
  static __m512i load(const Block* b) {
    return _mm512_shuffle_epi8(iq4_nl_table(),
                               nibbles_pair<kPair>(b[0].qs, kPair ? b[1].qs : nullptr));
  }
};

// MXFP4's scale is a power of two (E8M0), not an F16.
struct MXFP4Weights {
  using Block = BlockMXFP4;
  using XBlock = BlockQ8_0;
  static constexpr bool kHasMin = false;
  static constexpr int kOffset = 12;
  static constexpr Order kOrder = Order::kNibble;
  template <bool kPair>
  static __m512i load(const Block* b) {
    return _mm512_shuffle_epi8(mxfp4_table(),
                               nibbles_pair<kPair>(b[0].qs, kPair ? b[1].qs : nullptr));
  }
  template <bool kPair>
  static __m512 scale(const Block* b) {
    const __m512 va = _mm512_set1_ps(mxfp4_scale(b[0].e));
    if (!kPair) return _mm512_maskz_mov_ps(static_cast<__mmask16>(~kSecondBlockLanes<kOrder>), va);
    return _mm512_mask_blend_ps(kSecondBlockLanes<kOrder>, va, _mm512_set1_ps(mxfp4_scale(b[1].e)));
  }
};

// Q4_1 and Q5_1 quants are unsigned with no offset; their min m enters as
// m * s with Q8_1's s = d_x * sum(x), spread over the block's 8 lanes.
struct Q4_1Weights {
  using Block = BlockQ4_1;
  using XBlock = BlockQ8_1;
  static constexpr bool kHasMin = true;
  static constexpr int kOffset = 0;
  static constexpr Order kOrder = Order::kNibble;
  template <bool kPair>
  static __m512i load(const Block* b) {
    return nibbles_pair<kPair>(b[0].qs, kPair ? b[1].qs : nullptr);
  }
};

struct Q5_1Weights {
  using Block = BlockQ5_1;
  using XBlock = BlockQ8_1;
  static constexpr bool kHasMin = true;
  static constexpr int kOffset = 0;
  static constexpr Order kOrder = Order::kNibble;
  template <bool kPair>
  static __m512i load(const Block* b) {
    uint32_t qh0, qh1 = 0;
    std::memcpy(&qh0, b[0].qh, 4);
    if (kPair) std::memcpy(&qh1, b[1].qh, 4);
    const __mmask64 fifth_bits = (qh0 & 0xffffu) | ((qh1 & 0xffffu) << 16) |
                                 (static_cast<uint64_t>(qh0 >> 16) << 32) |
                                 (static_cast<uint64_t>(qh1 >> 16) << 48);
    return _mm512_or_si512(nibbles_pair<kPair>(b[0].qs, kPair ? b[1].qs : nullptr),
                           _mm512_maskz_set1_epi8(fifth_bits, 0x10));
  }
};

template <class W>
struct Q8Family {
  static constexpr int kRows = 4;
  static constexpr int kTokens = 4;
  static constexpr int kDecodeRows = 8;
  static constexpr Order kOrder = W::kOrder;

  using XBlock = typename W::XBlock;

  template <int R, int T, bool kPair>
  static inline void step(const float* f16, const typename W::Block* const* rows,
                          const XBlock* const* xs, const int16_t* const* sums, int64_t b,
                          __m512 (&acc)[R][T]) {
    __m512i xq[T], seed[T];
    __m512 dx[T], sx[T];
    for (int t = 0; t < T; ++t) {
      const XBlock* xb = xs[t] + b;
      xq[t] = load_pair<kOrder, kPair>(xb[0].qs, kPair ? xb[1].qs : nullptr);
      dx[t] = scale_pair<kOrder, kPair>(f16, xb[0].d, kPair ? xb[1].d : 0);
      if constexpr (W::kHasMin) {
        seed[t] = _mm512_setzero_si512();
        sx[t] = _mm512_mul_ps(scale_pair<kOrder, kPair>(f16, xb[0].s, kPair ? xb[1].s : 0),
                              _mm512_set1_ps(0.125f));
      } else {
        seed[t] = seed_pair<kOrder, kPair>(-W::kOffset * sums[t][b],
                                           kPair ? -W::kOffset * sums[t][b + 1] : 0);
      }
    }
    for (int r = 0; r < R; ++r) {
      const typename W::Block* wb = rows[r] + b;
      const __m512i wq = W::template load<kPair>(wb);
      __m512 dw;
      if constexpr (requires { W::template scale<kPair>(wb); }) {
        dw = W::template scale<kPair>(wb);
      } else {
        dw = scale_pair<kOrder, kPair>(f16, wb[0].d, kPair ? wb[1].d : 0);
      }
      __m512 mw;
      if constexpr (W::kHasMin) mw = scale_pair<kOrder, kPair>(f16, wb[0].m, kPair ? wb[1].m : 0);
      for (int t = 0; t < T; ++t) {
        const __m512i dot = _mm512_dpbusd_epi32(seed[t], wq, xq[t]);
        acc[r][t] = _mm512_fmadd_ps(_mm512_cvtepi32_ps(dot), _mm512_mul_ps(dw, dx[t]), acc[r][t]);
        if constexpr (W::kHasMin) acc[r][t] = _mm512_fmadd_ps(mw, sx[t], acc[r][t]);
      }
    }
  }

  template <int R, int T>
  static void run(const WeightMatrix& w, const PackedActivations& x, int64_t r0, int64_t t0,
                  float* y, int64_t y_stride) {
    const float* f16 = f16_table();
    const typename W::Block* rows[R];
    for (int r = 0; r < R; ++r) {
      rows[r] = reinterpret_cast<const typename W::Block*>(static_cast<const uint8_t*>(w.data) +
                                                           (r0 + r) * w.row_stride);
    }
    const XBlock* xs[T];
    const int16_t* sums[T];
    for (int t = 0; t < T; ++t) {
      xs[t] = reinterpret_cast<const XBlock*>(x.row(t0 + t));
      sums[t] = x.block_sums(t0 + t);
    }
    __m512 acc[R][T];
    for (int r = 0; r < R; ++r) {
      for (int t = 0; t < T; ++t) acc[r][t] = _mm512_setzero_ps();
    }
    const int64_t nb = w.cols / kQK;
    const TilePrefetch prefetch(rows[0], R, w.row_stride, nb / 2, t0, T, x.n_tokens());
    int64_t b = 0;
    for (; b + 2 <= nb; b += 2) {
      prefetch.step(b / 2);
      step<R, T, true>(f16, rows, xs, sums, b, acc);
    }
    if (b < nb) step<R, T, false>(f16, rows, xs, sums, b, acc);
    for (int t = 0; t < T; ++t) {
      for (int r = 0; r < R; ++r) {
        y[(t0 + t) * y_stride + r0 + r] = _mm512_reduce_add_ps(acc[r][t]);
      }
    }
  }
};

}  // namespace

TileList avx512::q8_0_family_tiles() {
  static constexpr TileEntry kTiles[] = {
      TileEntry{ElementType::kQ4_0, avx512::interleaved_or_blocks<avx512::q4_0_interleaved_tile,
                                                                  run_tile<Q8Family<Q4_0Weights>>>},
      TileEntry{ElementType::kQ5_0, run_tile<Q8Family<Q5_0Weights>>},
      TileEntry{ElementType::kQ4_1, run_tile<Q8Family<Q4_1Weights>>},
      TileEntry{ElementType::kQ5_1, run_tile<Q8Family<Q5_1Weights>>},
      TileEntry{ElementType::kIQ4_NL,
                avx512::interleaved_or_blocks<avx512::iq4_nl_interleaved_tile,
                                              run_tile<Q8Family<IQ4_NLWeights>>>},
      TileEntry{ElementType::kMXFP4,
                avx512::interleaved_or_blocks<avx512::mxfp4_interleaved_tile,
                                              run_tile<Q8Family<MXFP4Weights>>>},
      TileEntry{ElementType::kQ8_0, avx512::interleaved_or_blocks<avx512::q8_0_interleaved_tile,
                                                                  run_tile<Q8Family<Q8_0Weights>>>},
  };
  return kTiles;
}

}  // namespace ingot::kernels
