#pragma once
// The NEON kernels for the 256-element super-block types against Q8_K
// activations: Q2_K, Q3_K, Q4_K, Q5_K, Q6_K and IQ4_XS. A weight block is
// unpacked once per row into 16 vectors of 16 quants in element order
// (Q6_K, Q3_K and IQ4_XS signed, the others unsigned with their mins apart)
// and one integer scale per vector; each token then takes 16 integer dot
// products against its activations, each multiplied by its scale into
// four 32-bit lanes, and one float multiply-add per super-block:
// d * dx * (the scaled sum), less dmin * dx * (mins times the activations'
// sums) for the types with mins. The shape is written once for a Dot that
// adds 16 byte products into four lanes: widening multiplies in the
// baseline file, SDOT in the DotProd one.
//
// Included only by *_neon.cpp and *_dotprod.cpp files; everything is in an
// unnamed namespace so that each gets its own copy for its instructions.

#include <arm_neon.h>

#include <cstdint>

#include "kernels/block_formats.h"
#include "kernels/dispatch.h"
#include "kernels/f16_table.h"
#include "kernels/shapes/prefetch.h"
#include "kernels/shapes/tile_loop.h"

namespace ingot::kernels {
namespace {

// A super-block's quants, 16 to a vector in element order, the scale of
// each vector, and (types with mins) the min of each, which multiplies the
// activations' sum over the vector's 16 elements.
struct Unpacked {
  int8x16_t q[16];
  int32_t scale[16];
  int32_t min[16];
  float d;
  float dmin;
};

inline int8x16_t low_nibbles(uint8x16_t v) {
  return vreinterpretq_s8_u8(vandq_u8(v, vdupq_n_u8(0x0f)));
}

inline int8x16_t high_nibbles(uint8x16_t v) {
  return vreinterpretq_s8_u8(vshrq_n_u8(v, 4));
}

// Bits 2k and 2k + 1 of each byte, as 0..3.
inline uint8x16_t bit_pair(uint8x16_t v, int k) {
  return vandq_u8(vshlq_u8(v, vdupq_n_s8(static_cast<int8_t>(-2 * k))), vdupq_n_u8(3));
}

// Q2_K and Q3_K keep 2 bits of each element: elements 128h + 32k + l in
// bits 2k..2k+1 of qs[32h + l].
inline void two_bit_quants(const uint8_t* qs, int8x16_t (&q)[16]) {
  for (int h = 0; h < 2; ++h) {
    const uint8x16_t lo = vld1q_u8(qs + 32 * h), hi = vld1q_u8(qs + 32 * h + 16);
    for (int k = 0; k < 4; ++k) {
      q[8 * h + 2 * k] = vreinterpretq_s8_u8(bit_pair(lo, k));
      q[8 * h + 2 * k + 1] = vreinterpretq_s8_u8(bit_pair(hi, k));
    }
  }
}

struct Q2KUnpack {
  using Block = BlockQ2_K;
  static constexpr bool kHasMin = true;
  static void unpack(const float* f16, const Block& b, Unpacked& u) {
    two_bit_quants(b.qs, u.q);
    for (int s = 0; s < 16; ++s) {
      u.scale[s] = b.scales[s] & 0xf;
      u.min[s] = b.scales[s] >> 4;
    }
    u.d = f16[b.d];
    u.dmin = f16[b.dmin];
  }
};

struct Q3KUnpack {
  using Block = BlockQ3_K;
  static constexpr bool kHasMin = false;
  static void unpack(const float* f16, const Block& b, Unpacked& u) {
    two_bit_quants(b.qs, u.q);
    // Less 4 where element e's bit e / 32 of hmask[e % 32] is clear.
    const uint8x16_t mask_lo = vld1q_u8(b.hmask), mask_hi = vld1q_u8(b.hmask + 16);
    for (int j = 0; j < 16; ++j) {
      const uint8x16_t bit = vdupq_n_u8(static_cast<uint8_t>(1u << (j / 2)));
      const uint8x16_t set = vtstq_u8(j % 2 == 0 ? mask_lo : mask_hi, bit);
      const int8x16_t minus_four = vreinterpretq_s8_u8(vbicq_u8(vdupq_n_u8(4), set));
      u.q[j] = vsubq_s8(u.q[j], minus_four);
    }
    int8_t scales[16];
    q3_k_scales(b.scales, scales);
    for (int s = 0; s < 16; ++s) u.scale[s] = scales[s];
    u.d = f16[b.d];
  }
};

// Q4_K and Q5_K: 8 sub-blocks of 32 with 6-bit scales and mins.
inline void k4_scales(const uint8_t* packed, Unpacked& u) {
  for (int s = 0; s < 8; ++s) {
    const ScaleMin sm = k4_scale_min(packed, s);
    u.scale[2 * s] = u.scale[2 * s + 1] = sm.scale;
    u.min[2 * s] = u.min[2 * s + 1] = sm.min;
  }
}

// Elements 64c..64c+31 are the low nibbles of qs[32c..32c+31], the next
// 32 the high ones.
inline void nibble_quants(const uint8_t* qs, int8x16_t (&q)[16]) {
  for (int c = 0; c < 4; ++c) {
    const uint8x16_t a = vld1q_u8(qs + 32 * c), b = vld1q_u8(qs + 32 * c + 16);
    q[4 * c] = low_nibbles(a);
    q[4 * c + 1] = low_nibbles(b);
    q[4 * c + 2] = high_nibbles(a);
    q[4 * c + 3] = high_nibbles(b);
  }
}

struct Q4KUnpack {
  using Block = BlockQ4_K;
  static constexpr bool kHasMin = true;
  static void unpack(const float* f16, const Block& b, Unpacked& u) {
    nibble_quants(b.qs, u.q);
    k4_scales(b.scales, u);
    u.d = f16[b.d];
    u.dmin = f16[b.dmin];
  }
};

struct Q5KUnpack {
  using Block = BlockQ5_K;
  static constexpr bool kHasMin = true;
  static void unpack(const float* f16, const Block& b, Unpacked& u) {
    nibble_quants(b.qs, u.q);
    // Bit s of qh[l] is the fifth bit of element 32s + l.
    const uint8x16_t qh_lo = vld1q_u8(b.qh), qh_hi = vld1q_u8(b.qh + 16);
    for (int j = 0; j < 16; ++j) {
      const uint8x16_t bit = vdupq_n_u8(static_cast<uint8_t>(1u << (j / 2)));
      const uint8x16_t set = vtstq_u8(j % 2 == 0 ? qh_lo : qh_hi, bit);
      u.q[j] = vorrq_s8(u.q[j], vreinterpretq_s8_u8(vandq_u8(set, vdupq_n_u8(0x10))));
    }
    k4_scales(b.scales, u);
    u.d = f16[b.d];
    u.dmin = f16[b.dmin];
  }
};

struct Q6KUnpack {
  using Block = BlockQ6_K;
  static constexpr bool kHasMin = false;
  static void unpack(const float* f16, const Block& b, Unpacked& u) {
    // Half h: run k (32 elements) is ql[64h + 32 (k % 2) + l]'s low (k < 2)
    // or high nibble, with bits 2k..2k+1 of qh[32h + l] on top; less 32.
    for (int h = 0; h < 2; ++h) {
      for (int piece = 0; piece < 2; ++piece) {
        const uint8x16_t ql0 = vld1q_u8(b.ql + 64 * h + 16 * piece);
        const uint8x16_t ql1 = vld1q_u8(b.ql + 64 * h + 32 + 16 * piece);
        const uint8x16_t qh = vld1q_u8(b.qh + 32 * h + 16 * piece);
        const uint8x16_t low[4] = {vandq_u8(ql0, vdupq_n_u8(0x0f)), vandq_u8(ql1, vdupq_n_u8(0x0f)),
                                   vshrq_n_u8(ql0, 4), vshrq_n_u8(ql1, 4)};
        for (int k = 0; k < 4; ++k) {
          const uint8x16_t value = vorrq_u8(low[k], vshlq_n_u8(bit_pair(qh, k), 4));
          u.q[8 * h + 2 * k + piece] = vsubq_s8(vreinterpretq_s8_u8(value), vdupq_n_s8(32));
        }
      }
    }
    for (int s = 0; s < 16; ++s) u.scale[s] = b.scales[s];
    u.d = f16[b.d];
  }
};

struct IQ4XSUnpack {
  using Block = BlockIQ4_XS;
  static constexpr bool kHasMin = false;
  static void unpack(const float* f16, const Block& b, Unpacked& u) {
    const int8x16_t table = vld1q_s8(kIq4NlValues);
    for (int j = 0; j < 8; ++j) {
      const uint8x16_t qs = vld1q_u8(b.qs + 16 * j);
      u.q[2 * j] = vqtbl1q_s8(table, vandq_u8(qs, vdupq_n_u8(0x0f)));
      u.q[2 * j + 1] = vqtbl1q_s8(table, vshrq_n_u8(qs, 4));
      u.scale[2 * j] = u.scale[2 * j + 1] = iq4_xs_scale(b, j);
    }
    u.d = f16[b.d];
  }
};

// A micro-tile of R rows x T tokens; Dot::dot16(acc, w, x) adds the 16
// products of w and x to acc's four lanes.
template <class U, class Dot>
struct KQuantsNeon {
  static constexpr int kRows = 2;
  static constexpr int kTokens = 4;
  static constexpr int kDecodeRows = 2;

  template <int R, int T>
  static void run(const WeightMatrix& w, const PackedActivations& x, int64_t r0, int64_t t0,
                  float* y, int64_t y_stride) {
    const float* f16 = f16_table();
    using Block = typename U::Block;
    const Block* rows[R];
    for (int r = 0; r < R; ++r) {
      rows[r] = reinterpret_cast<const Block*>(static_cast<const uint8_t*>(w.data) +
                                               (r0 + r) * w.row_stride);
    }
    const BlockQ8_K* xs[T];
    for (int t = 0; t < T; ++t) xs[t] = reinterpret_cast<const BlockQ8_K*>(x.row(t0 + t));
    float acc[R][T] = {};
    const TilePrefetch prefetch(rows[0], R, w.row_stride, w.cols / kQK_K, t0, T, x.n_tokens());
    for (int64_t b = 0; b < w.cols / kQK_K; ++b) {
      prefetch.step(b);
      for (int r = 0; r < R; ++r) {
        Unpacked u;
        U::unpack(f16, rows[r][b], u);
        for (int t = 0; t < T; ++t) {
          const BlockQ8_K& xb = xs[t][b];
          int32x4_t scaled = vdupq_n_s32(0);
          for (int j = 0; j < 16; ++j) {
            const int32x4_t dot = Dot::dot16(vdupq_n_s32(0), u.q[j], vld1q_s8(xb.qs + 16 * j));
            scaled = vmlaq_n_s32(scaled, dot, u.scale[j]);
          }
          acc[r][t] += xb.d * u.d * static_cast<float>(vaddvq_s32(scaled));
          if constexpr (U::kHasMin) {
            int mins = 0;
            for (int j = 0; j < 16; ++j) mins += u.min[j] * xb.bsums[j];
            acc[r][t] -= xb.d * u.dmin * static_cast<float>(mins);
          }
        }
      }
    }
    for (int t = 0; t < T; ++t) {
      for (int r = 0; r < R; ++r) y[(t0 + t) * y_stride + r0 + r] = acc[r][t];
    }
  }
};

// The tile kernel of each super-block type for one Dot.
template <class Dot>
TileKernel k_quants_tile_for(ElementType type) {
  switch (type) {
    case ElementType::kQ2_K:
      return run_tile<KQuantsNeon<Q2KUnpack, Dot>>;
    case ElementType::kQ3_K:
      return run_tile<KQuantsNeon<Q3KUnpack, Dot>>;
    case ElementType::kQ4_K:
      return run_tile<KQuantsNeon<Q4KUnpack, Dot>>;
    case ElementType::kQ5_K:
      return run_tile<KQuantsNeon<Q5KUnpack, Dot>>;
    case ElementType::kQ6_K:
      return run_tile<KQuantsNeon<Q6KUnpack, Dot>>;
    case ElementType::kIQ4_XS:
      return run_tile<KQuantsNeon<IQ4XSUnpack, Dot>>;
    default:
      return nullptr;
  }
}

}  // namespace
}  // namespace ingot::kernels
