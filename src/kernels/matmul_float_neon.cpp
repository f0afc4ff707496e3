// NEON kernels for F16 and BF16 weights (against F16- and BF16-packed
// activations) and F32 weights: 8 columns per step, two vectors of four
// with fused multiply-adds; the last columns, fewer than 8, one by one.
#include <arm_neon.h>

#include <cstring>

#include "kernels/f16_table.h"
#include "kernels/matmul_kernels_neon.h"
#include "kernels/prefetch.h"
#include "kernels/tile_loop.h"

namespace ingot::kernels {
namespace {

struct Floats8 {
  float32x4_t lo, hi;
};

struct F16Elements {
  using Element = uint16_t;
  static Floats8 load(const uint16_t* p) {
    const float16x8_t h = vreinterpretq_f16_u16(vld1q_u16(p));
    return {vcvt_f32_f16(vget_low_f16(h)), vcvt_high_f32_f16(h)};
  }
  static float scalar(const uint16_t* p) { return f16_table()[*p]; }
};

// BF16 is the top half of an F32: widen and shift.
struct BF16Elements {
  using Element = uint16_t;
  static Floats8 load(const uint16_t* p) {
    const uint16x8_t h = vld1q_u16(p);
    return {vreinterpretq_f32_u32(vshll_n_u16(vget_low_u16(h), 16)),
            vreinterpretq_f32_u32(vshll_high_n_u16(h, 16))};
  }
  static float scalar(const uint16_t* p) {
    const uint32_t bits = static_cast<uint32_t>(*p) << 16;
    float f;
    std::memcpy(&f, &bits, 4);
    return f;
  }
};

struct F32Elements {
  using Element = float;
  static Floats8 load(const float* p) { return {vld1q_f32(p), vld1q_f32(p + 4)}; }
  static float scalar(const float* p) { return *p; }
};

template <class E>
struct FloatKernelNeon {
  static constexpr int kRows = 4;
  static constexpr int kTokens = 3;
  static constexpr int kDecodeRows = 4;

  template <int R, int T>
  static void run(const WeightMatrix& w, const PackedActivations& x, int64_t r0, int64_t t0,
                  float* y, int64_t y_stride) {
    using Element = typename E::Element;
    const Element* rows[R];
    for (int r = 0; r < R; ++r) {
      rows[r] = reinterpret_cast<const Element*>(static_cast<const uint8_t*>(w.data) +
                                                 (r0 + r) * w.row_stride);
    }
    const Element* xs[T];
    for (int t = 0; t < T; ++t) xs[t] = reinterpret_cast<const Element*>(x.row(t0 + t));
    float32x4_t acc[R][T];
    for (int r = 0; r < R; ++r) {
      for (int t = 0; t < T; ++t) acc[r][t] = vdupq_n_f32(0.0f);
    }
    const bool prefetch = first_pass_over_rows(t0);
    const size_t ahead = prefetch_distance(R, w.row_stride);
    int64_t i = 0;
    for (; i + 8 <= w.cols; i += 8) {
      if (prefetch && i * sizeof(Element) % 64 == 0) {
        prefetch_rows_ahead<R>(rows, ahead, i * sizeof(Element), 64);
      }
      Floats8 xv[T];
      for (int t = 0; t < T; ++t) xv[t] = E::load(xs[t] + i);
      for (int r = 0; r < R; ++r) {
        const Floats8 wv = E::load(rows[r] + i);
        for (int t = 0; t < T; ++t) {
          acc[r][t] = vfmaq_f32(acc[r][t], wv.lo, xv[t].lo);
          acc[r][t] = vfmaq_f32(acc[r][t], wv.hi, xv[t].hi);
        }
      }
    }
    for (int t = 0; t < T; ++t) {
      for (int r = 0; r < R; ++r) {
        float sum = vaddvq_f32(acc[r][t]);
        for (int64_t j = i; j < w.cols; ++j) sum += E::scalar(rows[r] + j) * E::scalar(xs[t] + j);
        y[(t0 + t) * y_stride + r0 + r] = sum;
      }
    }
  }
};

}  // namespace

void f16_tile_neon(const WeightMatrix& w, const PackedActivations& x, TileRange range, float* y,
                   int64_t y_stride) {
  run_tile<FloatKernelNeon<F16Elements>>(w, x, range, y, y_stride);
}

void bf16_tile_neon(const WeightMatrix& w, const PackedActivations& x, TileRange range, float* y,
                    int64_t y_stride) {
  run_tile<FloatKernelNeon<BF16Elements>>(w, x, range, y, y_stride);
}

void f32_tile_neon(const WeightMatrix& w, const PackedActivations& x, TileRange range, float* y,
                   int64_t y_stride) {
  run_tile<FloatKernelNeon<F32Elements>>(w, x, range, y, y_stride);
}

}  // namespace ingot::kernels
