// The 32-element block types with the Int8 matrix multiply extension:
// SMMLA multiplies a 2x8 block of bytes by another's transpose into a 2x2
// block of 32-bit sums, so two rows against two tokens take four SMMLAs a
// block where SDOT takes eight. Micro-tiles of an odd number of rows or
// tokens (a single token's decode, the edges) take the SDOT kernel.
#include "kernels/arm/matmul_kernels_neon.h"
#include "kernels/arm/matmul_q8_0_family_neon_shape.h"

namespace ingot::kernels {
namespace {

// Two blocks' quants as four 2x8 matrices: eight elements of the first,
// then the same eight of the second.
struct Pairs32 {
  int8x16_t part[4];
};

inline int8x16_t zip_low(int8x16_t a, int8x16_t b) {
  return vreinterpretq_s8_s64(vzip1q_s64(vreinterpretq_s64_s8(a), vreinterpretq_s64_s8(b)));
}

inline int8x16_t zip_high(int8x16_t a, int8x16_t b) {
  return vreinterpretq_s8_s64(vzip2q_s64(vreinterpretq_s64_s8(a), vreinterpretq_s64_s8(b)));
}

inline Pairs32 paired(Quants32 a, Quants32 b) {
  return {{zip_low(a.lo, b.lo), zip_high(a.lo, b.lo), zip_low(a.hi, b.hi), zip_high(a.hi, b.hi)}};
}

// [w0.x0, w0.x1, w1.x0, w1.x1] over a block.
inline int32x4_t pair_dots(const Pairs32& w, const Pairs32& x) {
  int32x4_t acc = vdupq_n_s32(0);
  for (int i = 0; i < 4; ++i) acc = vmmlaq_s32(acc, w.part[i], x.part[i]);
  return acc;
}

template <class Q>
struct MmlaKernel {
  static constexpr int kRows = 4;
  static constexpr int kTokens = 4;
  static constexpr int kDecodeRows = 4;

  template <int R, int T>
  static void run(const WeightMatrix& w, const PackedActivations& x, int64_t r0, int64_t t0,
                  float* y, int64_t y_stride) {
    if constexpr (R % 2 != 0 || T % 2 != 0) {
      Q8FamilyNeon<Q, SdotDot>::template run<R, T>(w, x, r0, t0, y, y_stride);
    } else {
      run_pairs<R, T>(w, x, r0, t0, y, y_stride);
    }
  }

  template <int R, int T>
  static void run_pairs(const WeightMatrix& w, const PackedActivations& x, int64_t r0, int64_t t0,
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
    float32x4_t acc[R / 2][T / 2];
    for (int r = 0; r < R / 2; ++r) {
      for (int t = 0; t < T / 2; ++t) acc[r][t] = vdupq_n_f32(0.0f);
    }
    const TilePrefetch prefetch(rows[0], R, w.row_stride, w.cols / kQK, t0, T, x.n_tokens());
    for (int64_t b = 0; b < w.cols / kQK; ++b) {
      prefetch.step(b);
      Pairs32 xq[T / 2];
      float32x4_t dx[T / 2];  // [dx0, dx1, dx0, dx1] of each token pair
      for (int t = 0; t < T / 2; ++t) {
        const XBlock& first = xs[2 * t][b];
        const XBlock& second = xs[2 * t + 1][b];
        xq[t] = paired(load_quants(first.qs), load_quants(second.qs));
        const float d0 = f16[first.d], d1 = f16[second.d];
        dx[t] = float32x4_t{d0, d1, d0, d1};
      }
      for (int r = 0; r < R / 2; ++r) {
        const typename Q::Block& first = rows[2 * r][b];
        const typename Q::Block& second = rows[2 * r + 1][b];
        const Pairs32 wq = paired(Q::prepare(first), Q::prepare(second));
        const float d0 = Q::scale(f16, first), d1 = Q::scale(f16, second);
        const float32x4_t dw = {d0, d0, d1, d1};
        for (int t = 0; t < T / 2; ++t) {
          const float32x4_t dots = vcvtq_f32_s32(pair_dots(wq, xq[t]));
          acc[r][t] = vfmaq_f32(acc[r][t], dots, vmulq_f32(dw, dx[t]));
        }
      }
      if constexpr (Q::kHasMin) {
        for (int r = 0; r < R; ++r) {
          for (int t = 0; t < T; ++t) min_acc[r][t] += f16[rows[r][b].m] * f16[xs[t][b].s];
        }
      }
    }
    for (int r = 0; r < R / 2; ++r) {
      for (int t = 0; t < T / 2; ++t) {
        float sums[4];
        vst1q_f32(sums, acc[r][t]);
        for (int i = 0; i < 4; ++i) {
          const int row = 2 * r + i / 2, token = 2 * t + i % 2;
          y[(t0 + token) * y_stride + r0 + row] = sums[i] + min_acc[row][token];
        }
      }
    }
  }
};

}  // namespace

TileKernel i8mm::q8_0_family_tile(ElementType weight_type) {
  return Q8FamilyTiles<MmlaKernel>::for_type(weight_type);
}

}  // namespace ingot::kernels
