// AVX-512 VNNI kernels for Q4_0, IQ4_NL, MXFP4, IQ4_XS, Q8_0, Q4_K and Q6_K weights in the
// interleaved layout (kernels/interleave.h) against interleaved Q8_0 (the
// K types: Q8_K) activations. Each vpdpbusd adds four products into each
// of 16 blocks' lanes, so a group of 16 blocks costs 8 of them per (row,
// token) pair plus one conversion and one multiply-add for all 16 block
// scales, where the block-at-a-time kernels spend three float operations
// per two blocks.
//
// Weights enter as unsigned bytes (Q4_0's stored nibbles, the table types'
// values plus 128 or 16, Q8_0 plus 128, Q6_K's stored 0..63), so each
// lane's integer sum starts from -offset *
// (the block's activation sum), the interleaved activations' negated sums
// shifted by log2(offset).
//
// GCC 12 flags the deliberately undefined lanes inside its own AVX-512
// intrinsics (reduce_add) as uninitialized.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#include <immintrin.h>

#include <cstring>

#include "kernels/interleave.h"
#include "kernels/matmul_kernels_avx512.h"
#include "kernels/prefetch.h"
#include "kernels/tile_loop.h"
#include "kernels/tile_sums_avx512.h"

namespace ingot::kernels {
namespace {

constexpr size_t kXQuants = 128;  // activation quants follow 16 scales and 16 sums

inline __m512i load(const uint8_t* p) {
  return _mm512_loadu_si512(p);
}

// Q4_0's nibbles are its unsigned quants as they are.
struct PlainNibbles {
  __m512i operator()(__m512i nibbles) const { return nibbles; }
};

// IQ4_NL's and MXFP4's nibbles index a table of 16 bytes, its values plus
// the type's offset (one table in each 128-bit lane).
struct TableNibbles {
  __m512i table;
  __m512i operator()(__m512i nibbles) const { return _mm512_shuffle_epi8(table, nibbles); }
};

// Products of R rows of nibble quants (4 vectors from each w[r],
// kernels/interleave.h), each nibble turned into its unsigned quant by
// `decode`, with T tokens' activations, added to acc.
template <int R, int T, class Decode = PlainNibbles>
inline void nibble_dots(const uint8_t* const* w, const uint8_t* const* x, __m512i (&acc)[R][T],
                        Decode decode = {}) {
  const __m512i low = _mm512_set1_epi8(0x0f);
  __m512i acc_hi[R][T];
  for (int r = 0; r < R; ++r) {
    for (int t = 0; t < T; ++t) acc_hi[r][t] = _mm512_setzero_si512();
  }
  for (int k = 0; k < 4; ++k) {
    for (int r = 0; r < R; ++r) {
      const __m512i q = load(w[r] + k * 64);
      const __m512i lo = decode(_mm512_and_si512(q, low));
      const __m512i hi = decode(_mm512_and_si512(_mm512_srli_epi16(q, 4), low));
      for (int t = 0; t < T; ++t) {
        acc[r][t] = _mm512_dpbusd_epi32(acc[r][t], lo, load(x[t] + kXQuants + k * 64));
        if constexpr (R * T <= 8) {
          acc_hi[r][t] =
              _mm512_dpbusd_epi32(acc_hi[r][t], hi, load(x[t] + kXQuants + (k + 4) * 64));
        } else {
          acc[r][t] = _mm512_dpbusd_epi32(acc[r][t], hi, load(x[t] + kXQuants + (k + 4) * 64));
        }
      }
    }
  }
  if constexpr (R * T <= 8) {
    for (int r = 0; r < R; ++r) {
      for (int t = 0; t < T; ++t) acc[r][t] = _mm512_add_epi32(acc[r][t], acc_hi[r][t]);
    }
  }
}

// Q4_0, IQ4_NL, MXFP4 and Q8_0: unsigned quants whose offset each lane's
// integer sum starts from, and one scale per block (F16; MXFP4's F32).
// Quants gives kType, kOffsetShift and dot<R, T>.
template <class Quants>
struct ScaledBlockGroups {
  static constexpr GroupLayout kLayout = group_layout(Quants::kType);

  template <int R, int T>
  [[gnu::always_inline]] static void accumulate(const uint8_t* const* quants, ptrdiff_t to_header,
                                                const uint8_t* const* xs, __m512 (&acc)[R][T]) {
    __m512i dots[R][T];
    for (int t = 0; t < T; ++t) {
      const __m512i seed = _mm512_slli_epi32(load(xs[t] + 64), Quants::kOffsetShift);
      for (int r = 0; r < R; ++r) dots[r][t] = seed;
    }
    Quants::template dot<R, T>(quants, xs, dots);
    for (int r = 0; r < R; ++r) {
      const uint8_t* header = quants[r] + to_header;
      __m512 dw;
      if constexpr (Quants::kType == ElementType::kMXFP4) {
        dw = _mm512_loadu_ps(reinterpret_cast<const float*>(header));
      } else {
        dw = _mm512_cvtph_ps(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(header)));
      }
      for (int t = 0; t < T; ++t) {
        const __m512 scale =
            _mm512_mul_ps(dw, _mm512_loadu_ps(reinterpret_cast<const float*>(xs[t])));
        acc[r][t] = _mm512_fmadd_ps(_mm512_cvtepi32_ps(dots[r][t]), scale, acc[r][t]);
      }
    }
  }
};

struct Q4_0Groups : ScaledBlockGroups<Q4_0Groups> {
  static constexpr ElementType kType = ElementType::kQ4_0;
  static constexpr int kOffsetShift = 3;  // offset 8

  template <int R, int T>
  static inline void dot(const uint8_t* const* w, const uint8_t* const* x, __m512i (&acc)[R][T]) {
    nibble_dots<R, T>(w, x, acc);
  }
};

// IQ4_NL's values -127..113, plus 128.
struct IQ4_NLGroups : ScaledBlockGroups<IQ4_NLGroups> {
  static constexpr ElementType kType = ElementType::kIQ4_NL;
  static constexpr int kOffsetShift = 7;  // offset 128

  template <int R, int T>
  static inline void dot(const uint8_t* const* w, const uint8_t* const* x, __m512i (&acc)[R][T]) {
    const __m512i table = _mm512_broadcast_i32x4(
        _mm_setr_epi8(1, 24, 45, 63, 79, 93, 106, 118, char(129), char(141), char(153), char(166),
                      char(181), char(197), char(217), char(241)));
    nibble_dots<R, T>(w, x, acc, TableNibbles{table});
  }
};

// MXFP4's doubled FP4 values -12..12, plus 16.
struct MXFP4Groups : ScaledBlockGroups<MXFP4Groups> {
  static constexpr ElementType kType = ElementType::kMXFP4;
  static constexpr int kOffsetShift = 4;  // offset 16

  template <int R, int T>
  static inline void dot(const uint8_t* const* w, const uint8_t* const* x, __m512i (&acc)[R][T]) {
    const __m512i table = _mm512_broadcast_i32x4(
        _mm_setr_epi8(16, 17, 18, 19, 20, 22, 24, 28, 16, 15, 14, 13, 12, 10, 8, 4));
    nibble_dots<R, T>(w, x, acc, TableNibbles{table});
  }
};

struct Q8_0Groups : ScaledBlockGroups<Q8_0Groups> {
  static constexpr ElementType kType = ElementType::kQ8_0;
  static constexpr int kOffsetShift = 7;  // offset 128

  template <int R, int T>
  static inline void dot(const uint8_t* const* w, const uint8_t* const* x, __m512i (&acc)[R][T]) {
    for (int j = 0; j < 8; ++j) {
      for (int r = 0; r < R; ++r) {
        const __m512i q = load(w[r] + j * 64);
        for (int t = 0; t < T; ++t) {
          acc[r][t] = _mm512_dpbusd_epi32(acc[r][t], q, load(x[t] + kXQuants + j * 64));
        }
      }
    }
  }
};

// Q4_K: each lane is a sub-block with its own scale d * sc and min
// dmin * m, so the integer dots start from zero and each (row, token) pair
// adds two float terms per group: dot * (d * sc) * dx, and the min term
// (dmin * m) * (-dx * activation sum).
struct Q4KGroups {
  static constexpr GroupLayout kLayout = group_layout(ElementType::kQ4_K);

  template <int R, int T>
  [[gnu::always_inline]] static void accumulate(const uint8_t* const* quants, ptrdiff_t to_header,
                                                const uint8_t* const* xs, __m512 (&acc)[R][T]) {
    __m512i dots[R][T];
    for (int r = 0; r < R; ++r) {
      for (int t = 0; t < T; ++t) dots[r][t] = _mm512_setzero_si512();
    }
    nibble_dots<R, T>(quants, xs, dots);
    __m512 x_scale[T], x_min[T];
    for (int t = 0; t < T; ++t) {
      x_scale[t] = _mm512_loadu_ps(reinterpret_cast<const float*>(xs[t]));
      x_min[t] = _mm512_mul_ps(_mm512_cvtepi32_ps(load(xs[t] + 64)), x_scale[t]);
    }
    // Lanes 0-7 take the first super-block's F16 (word 0 for d, 2 for
    // dmin), lanes 8-15 the second's.
    const __m256i d_index = _mm256_set_epi16(1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0);
    const __m256i dmin_index = _mm256_set_epi16(3, 3, 3, 3, 3, 3, 3, 3, 2, 2, 2, 2, 2, 2, 2, 2);
    for (int r = 0; r < R; ++r) {
      const uint8_t* header = quants[r] + to_header;
      const __m256i d_words =
          _mm256_castsi128_si256(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(header)));
      const __m512 d = _mm512_cvtph_ps(_mm256_permutexvar_epi16(d_index, d_words));
      const __m512 dmin = _mm512_cvtph_ps(_mm256_permutexvar_epi16(dmin_index, d_words));
      const __m512 scale = _mm512_mul_ps(d, bytes_as_floats(header + 8));
      const __m512 min = _mm512_mul_ps(dmin, bytes_as_floats(header + 24));
      for (int t = 0; t < T; ++t) {
        acc[r][t] = _mm512_fmadd_ps(_mm512_cvtepi32_ps(dots[r][t]),
                                    _mm512_mul_ps(scale, x_scale[t]), acc[r][t]);
        acc[r][t] = _mm512_fmadd_ps(min, x_min[t], acc[r][t]);
      }
    }
  }

 private:
  // 16 unsigned bytes as 16 floats.
  static __m512 bytes_as_floats(const uint8_t* p) {
    return _mm512_cvtepi32_ps(
        _mm512_cvtepu8_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p))));
  }
};

// IQ4_XS: each lane is a sub-block with its own scale d * (s - 32) and
// IQ4_NL's table (plus 128), so the integer dots start from -128 times the
// activation sums and one float term per (row, token) pair follows.
struct IQ4XSGroups {
  static constexpr GroupLayout kLayout = group_layout(ElementType::kIQ4_XS);

  template <int R, int T>
  [[gnu::always_inline]] static void accumulate(const uint8_t* const* quants, ptrdiff_t to_header,
                                                const uint8_t* const* xs, __m512 (&acc)[R][T]) {
    __m512i dots[R][T];
    for (int t = 0; t < T; ++t) {
      const __m512i seed = _mm512_slli_epi32(load(xs[t] + 64), 7);  // offset 128
      for (int r = 0; r < R; ++r) dots[r][t] = seed;
    }
    IQ4_NLGroups::dot<R, T>(quants, xs, dots);
    // Lanes 0-7 take the first super-block's d, lanes 8-15 the second's.
    const __m256i d_index = _mm256_set_epi16(1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0);
    for (int r = 0; r < R; ++r) {
      const uint8_t* header = quants[r] + to_header;
      const __m256i d_words =
          _mm256_castsi128_si256(_mm_cvtsi32_si128(*reinterpret_cast<const int32_t*>(header)));
      const __m512 d = _mm512_cvtph_ps(_mm256_permutexvar_epi16(d_index, d_words));
      const __m512 scale = _mm512_mul_ps(d, _mm512_cvtepi32_ps(_mm512_cvtepi8_epi32(_mm_loadu_si128(
                                                reinterpret_cast<const __m128i*>(header + 4)))));
      for (int t = 0; t < T; ++t) {
        const __m512 x_scale = _mm512_loadu_ps(reinterpret_cast<const float*>(xs[t]));
        acc[r][t] = _mm512_fmadd_ps(_mm512_cvtepi32_ps(dots[r][t]), _mm512_mul_ps(scale, x_scale),
                                    acc[r][t]);
      }
    }
  }
};

// Q6_K: each lane is a 32-element chunk holding two sub-blocks with their
// own scales, so a group takes two passes, each with its own integer sums
// and float epilogue: the even sub-blocks (activation vectors 0-3), then
// the odd ones (4-7). The values are unsigned 0..63; the -32 offset is
// -32 times each sub-block's activation sum, from the activations' half
// and whole negated sums, and seeds the integer sums. It replaces the
// block-at-a-time kernel's two instructions per 64 products (vpmaddubsw
// and vpdpwssd) with one vpdpbusd.
struct Q6KGroups {
  static constexpr GroupLayout kLayout = group_layout(ElementType::kQ6_K);

  template <int R, int T>
  [[gnu::always_inline]] static void accumulate(const uint8_t* const* quants, ptrdiff_t to_header,
                                                const uint8_t* const* xs, __m512 (&acc)[R][T]) {
    __m512i dots[R][T];
    for (int half = 0; half < 2; ++half) {
      for (int t = 0; t < T; ++t) {
        const __m512i neg_half = load(xs[t] + kActivationHalfSumsOffset);
        // The odd half's negated sum is the whole's minus the even half's.
        const __m512i neg_sum = half == 0 ? neg_half : _mm512_sub_epi32(load(xs[t] + 64), neg_half);
        const __m512i seed = _mm512_slli_epi32(neg_sum, 5);
        for (int r = 0; r < R; ++r) dots[r][t] = seed;
      }
      six_bit_dots<R, T>(quants, half, xs, dots);
      add_scaled<R, T>(quants, to_header, half, xs, dots, acc);
    }
  }

 private:
  // bits where mask is set from if_set, the rest from if_clear.
  static __m512i select_bits(__m512i mask, __m512i if_set, __m512i if_clear) {
    return _mm512_ternarylogic_epi32(mask, if_set, if_clear, 0xca);
  }

  // Vector k (0-3) of a half's values, from its A, B, C vectors.
  static __m512i values(const uint8_t* abc, int k) {
    const __m512i six_bits = _mm512_set1_epi8(0x3f);
    if (k < 3) return _mm512_and_si512(load(abc + 64 * k), six_bits);
    // Bits 6-7 of A, B, C to bits 0-1, 2-3, 4-5. Word shifts pull the next
    // byte's low bits into the top of each byte; the selects and the last
    // mask drop them.
    const __m512i low = _mm512_srli_epi16(load(abc), 6);
    const __m512i mid = _mm512_srli_epi16(load(abc + 64), 4);
    const __m512i top = _mm512_srli_epi16(load(abc + 128), 2);
    const __m512i low4 = select_bits(_mm512_set1_epi8(0x03), low, mid);
    return _mm512_and_si512(select_bits(_mm512_set1_epi8(0x0f), low4, top), six_bits);
  }

  template <int R, int T>
  [[gnu::always_inline]] static void six_bit_dots(const uint8_t* const* quants, int half,
                                                  const uint8_t* const* xs, __m512i (&dots)[R][T]) {
    for (int k = 0; k < 4; ++k) {
      for (int r = 0; r < R; ++r) {
        const __m512i w = values(quants[r] + 3 * 64 * half, k);
        for (int t = 0; t < T; ++t) {
          dots[r][t] =
              _mm512_dpbusd_epi32(dots[r][t], w, load(xs[t] + kXQuants + (4 * half + k) * 64));
        }
      }
    }
  }

  // acc += dots * (d * the half's sub-block scales) * activation scale.
  template <int R, int T>
  [[gnu::always_inline]] static void add_scaled(const uint8_t* const* quants, ptrdiff_t to_header,
                                                int half, const uint8_t* const* xs,
                                                const __m512i (&dots)[R][T], __m512 (&acc)[R][T]) {
    // Lanes 0-7 take the first super-block's d, lanes 8-15 the second's.
    const __m256i d_index = _mm256_set_epi16(1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0);
    for (int r = 0; r < R; ++r) {
      const uint8_t* header = quants[r] + to_header;
      uint32_t d_pair;
      std::memcpy(&d_pair, header, 4);
      const __m256i d_words = _mm256_castsi128_si256(_mm_cvtsi32_si128(static_cast<int>(d_pair)));
      const __m512 d = _mm512_cvtph_ps(_mm256_permutexvar_epi16(d_index, d_words));
      const __m128i sub_scales =
          _mm_loadu_si128(reinterpret_cast<const __m128i*>(header + 4 + 16 * half));
      const __m512 scale = _mm512_mul_ps(d, _mm512_cvtepi32_ps(_mm512_cvtepi8_epi32(sub_scales)));
      for (int t = 0; t < T; ++t) {
        const __m512 x_scale = _mm512_loadu_ps(reinterpret_cast<const float*>(xs[t]));
        acc[r][t] = _mm512_fmadd_ps(_mm512_cvtepi32_ps(dots[r][t]), _mm512_mul_ps(scale, x_scale),
                                    acc[r][t]);
      }
    }
  }
};

// One micro-tile over a matrix's groups; G (the block type's groups) gives
// kLayout (kernels/interleave.h) and accumulate<R, T>(quants, to_header,
// xs, acc), which adds one group's products to acc (row r's header is at
// quants[r] + to_header).
// accumulate is forced inline: called, it kept acc in memory, which made
// the 1-token kernel slower.
template <class G>
struct Interleaved {
  static constexpr int kRows = 4;
  static constexpr int kTokens = 3;
  static constexpr int kDecodeRows = 8;
  // 2 to 4 tokens: micro-tiles of 6 rows x 2 tokens. For 4 tokens that
  // beats 4 x 3 then 4 x 1, which reads every group twice and, for Q4_0,
  // unpacks every nibble twice (docs/performance.md).
  static constexpr int kSmallBatchRows = kInterleavedSmallBatchRows;

  template <int R, int T>
  static void run(const WeightMatrix& w, const PackedActivations& x, int64_t r0, int64_t t0,
                  float* y, int64_t y_stride) {
    constexpr GroupLayout kLayout = G::kLayout;
    // Bytes from one group's quants, and header, to the next group's.
    constexpr size_t kGroupBytes = kLayout.header_bytes + kLayout.quant_bytes;
    constexpr size_t kQuantStep = kLayout.headers_apart ? kLayout.quant_bytes : kGroupBytes;
    constexpr size_t kHeaderStep = kLayout.headers_apart ? kLayout.header_bytes : kGroupBytes;
    const auto* row0 = static_cast<const uint8_t*>(w.interleaved) + r0 * w.interleaved_stride;
    const uint8_t* quants[R];
    for (int r = 0; r < R; ++r) {
      quants[r] =
          row0 + r * w.interleaved_stride + (kLayout.headers_apart ? 0 : kLayout.header_bytes);
    }
    // From each row's current quants to its current header: the same for
    // every row, so the rows need one pointer each (with two, 6-row tiles
    // spilled them).
    ptrdiff_t to_header = kLayout.headers_apart
                              ? static_cast<ptrdiff_t>(headers_offset(kLayout, w.cols))
                              : -static_cast<ptrdiff_t>(kLayout.header_bytes);
    const uint8_t* xs[T];
    for (int t = 0; t < T; ++t) xs[t] = x.interleaved_row(t0 + t);
    __m512 acc[R][T];
    for (int r = 0; r < R; ++r) {
      for (int t = 0; t < T; ++t) acc[r][t] = _mm512_setzero_ps();
    }
    const int64_t n_groups = interleaved_groups(w.cols);
    const TilePrefetch prefetch(row0, R, w.interleaved_stride, n_groups, t0, T, x.n_tokens());
    for (int64_t g = 0; g < n_groups; ++g) {
      prefetch.step(g);
      G::template accumulate<R, T>(quants, to_header, xs, acc);
      for (int r = 0; r < R; ++r) quants[r] += kQuantStep;
      to_header -= static_cast<ptrdiff_t>(kQuantStep - kHeaderStep);
      for (int t = 0; t < T; ++t) xs[t] += kActivationGroupBytes;
    }
    avx512::store_tile_sums<R, T>(acc, y, y_stride, r0, t0);
  }
};

}  // namespace

void q4_0_interleaved_tile_avx512(const WeightMatrix& w, const PackedActivations& x,
                                  TileRange range, float* y, int64_t y_stride) {
  run_tile<Interleaved<Q4_0Groups>>(w, x, range, y, y_stride);
}

void iq4_nl_interleaved_tile_avx512(const WeightMatrix& w, const PackedActivations& x,
                                    TileRange range, float* y, int64_t y_stride) {
  run_tile<Interleaved<IQ4_NLGroups>>(w, x, range, y, y_stride);
}

void mxfp4_interleaved_tile_avx512(const WeightMatrix& w, const PackedActivations& x,
                                   TileRange range, float* y, int64_t y_stride) {
  run_tile<Interleaved<MXFP4Groups>>(w, x, range, y, y_stride);
}

void iq4_xs_interleaved_tile_avx512(const WeightMatrix& w, const PackedActivations& x,
                                    TileRange range, float* y, int64_t y_stride) {
  run_tile<Interleaved<IQ4XSGroups>>(w, x, range, y, y_stride);
}

void q8_0_interleaved_tile_avx512(const WeightMatrix& w, const PackedActivations& x,
                                  TileRange range, float* y, int64_t y_stride) {
  run_tile<Interleaved<Q8_0Groups>>(w, x, range, y, y_stride);
}

void q4_k_interleaved_tile_avx512(const WeightMatrix& w, const PackedActivations& x,
                                  TileRange range, float* y, int64_t y_stride) {
  run_tile<Interleaved<Q4KGroups>>(w, x, range, y, y_stride);
}

void q6_k_interleaved_tile_avx512(const WeightMatrix& w, const PackedActivations& x,
                                  TileRange range, float* y, int64_t y_stride) {
  run_tile<Interleaved<Q6KGroups>>(w, x, range, y, y_stride);
}

}  // namespace ingot::kernels
