#pragma once
// The NEON kernels for the 32-element block types, one block per step:
// Q4_0, Q5_0, Q8_0, IQ4_NL and MXFP4 against Q8_0 activations, Q4_1 and
// Q5_1 against Q8_1. Every type's quants become signed bytes (Q4_0 less 8,
// Q5_0 less 16, the table types through one table lookup; Q4_1 and Q5_1
// stay unsigned and add their min times Q8_1's s = d_x * sum), so one
// integer dot product serves all. The shape is written once, for a Dot
// that multiplies 32 bytes by 32 into four 32-bit lanes: the baseline file
// widens to 16 bits (SMULL) and adds pairs (SADALP), the DotProd file uses
// SDOT. Per-block integer sums are scaled by d_w * d_x in float, as in the
// scalar reference.
//
// Included only by *_neon.cpp and *_dotprod.cpp files; everything is in an
// unnamed namespace so that each gets its own copy for its instructions.

#include <arm_neon.h>

#include <cstdint>
#include <cstring>

#include "kernels/block_formats.h"
#include "kernels/dispatch.h"
#include "kernels/f16_table.h"
#include "kernels/shapes/prefetch.h"
#include "kernels/shapes/tile_loop.h"

namespace ingot::kernels {
namespace {

// A block's 32 quants as signed bytes, elements 0-15 and 16-31.
struct Quants32 {
  int8x16_t lo, hi;
};

inline Quants32 load_quants(const int8_t* qs) {
  return {vld1q_s8(qs), vld1q_s8(qs + 16)};
}

// Byte j of qs carries element j in its low nibble, element j + 16 in its high.
inline Quants32 nibbles(const uint8_t* qs) {
  const uint8x16_t q = vld1q_u8(qs);
  return {vreinterpretq_s8_u8(vandq_u8(q, vdupq_n_u8(0x0f))),
          vreinterpretq_s8_u8(vshrq_n_u8(q, 4))};
}

// 0x10 in byte j where bit j of the block's qh is set.
inline Quants32 fifth_bits(const uint8_t* qh_bytes) {
  uint32_t qh;
  std::memcpy(&qh, qh_bytes, 4);
  // Byte j of a half takes byte j / 8 of its 16 bits of qh, then tests bit j % 8.
  const uint8x16_t spread_index = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1};
  const uint8x16_t bit = {1, 2, 4, 8, 16, 32, 64, 128, 1, 2, 4, 8, 16, 32, 64, 128};
  const uint8x16_t bytes = vreinterpretq_u8_u32(vdupq_n_u32(qh));
  const uint8x16_t lo = vqtbl1q_u8(bytes, spread_index);
  const uint8x16_t hi = vqtbl1q_u8(bytes, vaddq_u8(spread_index, vdupq_n_u8(2)));
  const uint8x16_t sixteen = vdupq_n_u8(0x10);
  return {vreinterpretq_s8_u8(vandq_u8(vtstq_u8(lo, bit), sixteen)),
          vreinterpretq_s8_u8(vandq_u8(vtstq_u8(hi, bit), sixteen))};
}

inline Quants32 offset(Quants32 q, int8_t by) {
  return {vsubq_s8(q.lo, vdupq_n_s8(by)), vsubq_s8(q.hi, vdupq_n_s8(by))};
}

inline Quants32 merged(Quants32 a, Quants32 b) {
  return {vorrq_s8(a.lo, b.lo), vorrq_s8(a.hi, b.hi)};
}

inline Quants32 looked_up(const int8_t (&values)[16], Quants32 indices) {
  const int8x16_t table = vld1q_s8(values);
  return {vqtbl1q_s8(table, vreinterpretq_u8_s8(indices.lo)),
          vqtbl1q_s8(table, vreinterpretq_u8_s8(indices.hi))};
}

// The scale of most types: an F16 d.
struct F16Scale {
  template <class Block>
  static float scale(const float* f16, const Block& b) {
    return f16[b.d];
  }
};

struct Q4_0Quants : F16Scale {
  using Block = BlockQ4_0;
  using XBlock = BlockQ8_0;
  static constexpr bool kHasMin = false;
  static Quants32 prepare(const Block& b) { return offset(nibbles(b.qs), 8); }
};

struct Q5_0Quants : F16Scale {
  using Block = BlockQ5_0;
  using XBlock = BlockQ8_0;
  static constexpr bool kHasMin = false;
  static Quants32 prepare(const Block& b) {
    return offset(merged(nibbles(b.qs), fifth_bits(b.qh)), 16);
  }
};

struct Q4_1Quants : F16Scale {
  using Block = BlockQ4_1;
  using XBlock = BlockQ8_1;
  static constexpr bool kHasMin = true;
  static Quants32 prepare(const Block& b) { return nibbles(b.qs); }
};

struct Q5_1Quants : F16Scale {
  using Block = BlockQ5_1;
  using XBlock = BlockQ8_1;
  static constexpr bool kHasMin = true;
  static Quants32 prepare(const Block& b) { return merged(nibbles(b.qs), fifth_bits(b.qh)); }
};

struct Q8_0Quants : F16Scale {
  using Block = BlockQ8_0;
  using XBlock = BlockQ8_0;
  static constexpr bool kHasMin = false;
  static Quants32 prepare(const Block& b) { return load_quants(b.qs); }
};

struct IQ4_NLQuants : F16Scale {
  using Block = BlockIQ4_NL;
  using XBlock = BlockQ8_0;
  static constexpr bool kHasMin = false;
  static Quants32 prepare(const Block& b) { return looked_up(kIq4NlValues, nibbles(b.qs)); }
};

struct MXFP4Quants {
  using Block = BlockMXFP4;
  using XBlock = BlockQ8_0;
  static constexpr bool kHasMin = false;
  static Quants32 prepare(const Block& b) { return looked_up(kMxfp4Values, nibbles(b.qs)); }
  static float scale(const float*, const Block& b) { return mxfp4_scale(b.e); }
};

// A micro-tile of R rows x T tokens; Dot::dot(acc, w, x) adds the 32
// products of w and x to acc's four lanes.
template <class Q, class Dot>
struct Q8FamilyNeon {
  static constexpr int kRows = 4;
  static constexpr int kTokens = 4;
  static constexpr int kDecodeRows = 4;

  template <int R, int T>
  static void run(const WeightMatrix& w, const PackedActivations& x, int64_t r0, int64_t t0,
                  float* y, int64_t y_stride) {
    const float* f16 = f16_table();
    const typename Q::Block* rows[R];
    for (int r = 0; r < R; ++r) {
      rows[r] = reinterpret_cast<const typename Q::Block*>(static_cast<const uint8_t*>(w.data) +
                                                           (r0 + r) * w.row_stride);
    }
    using XBlock = typename Q::XBlock;
    const XBlock* xs[T];
    for (int t = 0; t < T; ++t) xs[t] = reinterpret_cast<const XBlock*>(x.row(t0 + t));
    float min_acc[R][T] = {};
    float32x4_t acc[R][T];
    for (int r = 0; r < R; ++r) {
      for (int t = 0; t < T; ++t) acc[r][t] = vdupq_n_f32(0.0f);
    }
    const TilePrefetch prefetch(rows[0], R, w.row_stride, w.cols / kQK, t0, T, x.n_tokens());
    for (int64_t b = 0; b < w.cols / kQK; ++b) {
      prefetch.step(b);
      Quants32 xq[T];
      float dx[T];
      for (int t = 0; t < T; ++t) {
        xq[t] = load_quants(xs[t][b].qs);
        dx[t] = f16[xs[t][b].d];
      }
      for (int r = 0; r < R; ++r) {
        const Quants32 wq = Q::prepare(rows[r][b]);
        const float dw = Q::scale(f16, rows[r][b]);
        for (int t = 0; t < T; ++t) {
          const int32x4_t dot = Dot::dot(vdupq_n_s32(0), wq, xq[t]);
          acc[r][t] = vfmaq_n_f32(acc[r][t], vcvtq_f32_s32(dot), dw * dx[t]);
          if constexpr (Q::kHasMin) min_acc[r][t] += f16[rows[r][b].m] * f16[xs[t][b].s];
        }
      }
    }
    for (int t = 0; t < T; ++t) {
      for (int r = 0; r < R; ++r) {
        y[(t0 + t) * y_stride + r0 + r] = vaddvq_f32(acc[r][t]) + min_acc[r][t];
      }
    }
  }
};

#if defined(__ARM_FEATURE_DOTPROD)
// SDOT adds each group of four byte products into a 32-bit lane.
struct SdotDot {
  static int32x4_t dot16(int32x4_t acc, int8x16_t w, int8x16_t x) { return vdotq_s32(acc, w, x); }
  static int32x4_t dot(int32x4_t acc, Quants32 w, Quants32 x) {
    return vdotq_s32(vdotq_s32(acc, w.lo, x.lo), w.hi, x.hi);
  }
};
#endif

// The tile kernel of each type for one Kernel<Q> (a micro-tile shape).
template <template <class> class Kernel>
struct Q8FamilyTiles {
  template <class Q>
  static void tile(const WeightMatrix& w, const PackedActivations& x, TileRange range, float* y,
                   int64_t y_stride) {
    run_tile<Kernel<Q>>(w, x, range, y, y_stride);
  }

  static TileKernel for_type(ElementType type) {
    switch (type) {
      case ElementType::kQ4_0:
        return tile<Q4_0Quants>;
      case ElementType::kQ4_1:
        return tile<Q4_1Quants>;
      case ElementType::kQ5_0:
        return tile<Q5_0Quants>;
      case ElementType::kQ5_1:
        return tile<Q5_1Quants>;
      case ElementType::kQ8_0:
        return tile<Q8_0Quants>;
      case ElementType::kIQ4_NL:
        return tile<IQ4_NLQuants>;
      case ElementType::kMXFP4:
        return tile<MXFP4Quants>;
      default:
        return nullptr;
    }
  }
};

}  // namespace
}  // namespace ingot::kernels
